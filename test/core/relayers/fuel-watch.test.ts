/**
 * FuelWatch on the real service: balances read through the client only every few minutes (counted at
 * the service), payments taken from the records as the store receives them, figures equal to the
 * simulator's wallets, the dry wallet alerted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/shared/clock';
import { parseMessage } from '../../../src/shared/messages';
import type { DataApiClient } from '../../../src/core/data-api/client';
import { PoolRegistry } from '../../../src/core/data-api/pools';
import { fuelFigures } from '../../../src/core/relayers/fuel';
import { FuelWatch } from '../../../src/core/relayers/fuel-watch';
import { startLocalService, type SimulatedService } from '../../../src/local-service';
import { WALLET_WORLD, clientTo } from './wallet-world';

const pools = new PoolRegistry();
const clock = new ManualClock();
let service: SimulatedService;
let client: DataApiClient;

beforeAll(async () => {
  service = await startLocalService({ clock, ...WALLET_WORLD, tickMs: 60_000 });
  client = clientTo(service.url, clock, pools);
});
afterAll(async () => {
  await pools.close();
  await service.close();
});

describe('FuelWatch', () => {
  it('reads each balance once per interval; burn and hours to empty from the payments it saw equal the wallets; the dry wallet alerts once', async () => {
    const dry = service.simulator.wallets.dry!;
    const other = service.simulator.wallets.truth(service.simulator.now()).find((w) => w.blockchainId !== dry.blockchainId && w.deliveries > 50)!;
    const watch = new FuelWatch(client, clock, { readEveryMs: 5 * 60_000, thresholdHours: 6 });
    watch.watch({ relayer: dry.relayer, blockchainId: dry.blockchainId, name: 'Swift' });
    watch.watch({ relayer: other.relayer, blockchainId: other.blockchainId, name: 'Other' });
    let before: number | undefined;
    for (;;) {
      const page = service.store.page({}, before, 5000);
      watch.observe(page.records.map((r) => parseMessage(JSON.parse(r))!));
      if (!page.hasMore) break;
      before = page.positions[page.positions.length - 1];
    }
    const off = service.onRecordChange((changes) => watch.observe(changes.map((c) => parseMessage(c.record)!)));
    const requestsBefore = service.requestCount();
    const fired: string[] = [];
    for (let minute = 1; minute <= 30; minute++) {
      await clock.advance(60_000);
      for (const c of await watch.readDue()) if (c.change.kind === 'fire') fired.push(c.change.text);
    }
    off();
    // Reads at minutes 1, 6, 11, 16, 21, 26 for each of the two wallets, nothing in between.
    expect(service.requestCount() - requestsBefore).toBe(12);
    const now = clock.now();
    for (const r of watch.readings()) {
      expect(r.readAt).toBe(now - 4 * 60_000);
      const w = service.simulator.wallets.truth(r.readAt).find((x) => x.relayer === r.target.relayer && x.blockchainId === r.target.blockchainId)!;
      const upToRead = w.payments.filter((p) => p.at <= r.readAt).map((p) => ({ at: Math.floor(p.at / 1000) * 1000, wei: BigInt(p.wei) }));
      const expected = fuelFigures(r.figures.balance, upToRead, r.readAt);
      expect(r.figures).toEqual(expected);
    }
    expect(fired).toEqual([expect.stringMatching(/^Relayer Swift will run out of gas on C-Chain in about \d+ (min|h|h \d+ min) at the last hour's rate\.$/)]);
  }, 90_000);
});
