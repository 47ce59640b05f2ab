/**
 * Earnings per relayer and route from the real service's records, read page by page through the
 * core's Data API client over HTTP, checked to the unit against the raw records in the service's
 * SQLite store; failed executions listed by ID; profit only where every price is known.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/shared/clock';
import { chainByBlockchainId } from '../../../src/shared/chains';
import type { TeleporterMessage } from '../../../src/shared/messages';
import { PoolRegistry } from '../../../src/core/data-api/pools';
import { routeEarnings } from '../../../src/core/relayers/earnings';
import { nativeUsd } from '../../../src/simulator/wallets';
import { startLocalService, type SimulatedService } from '../../../src/local-service';
import { clientTo } from './wallet-world';

const pools = new PoolRegistry();
const clock = new ManualClock();
let service: SimulatedService;
const messages: TeleporterMessage[] = [];

beforeAll(async () => {
  service = await startLocalService({ clock, preload: 3000, seed: 5, rate: 0, rateLimitPerMinute: { keyed: 1_000_000, anonymous: 1_000_000 } });
  const client = clientTo(service.url, clock, pools);
  let pageToken: string | undefined;
  do {
    const page = await client.listMessages({ pageSize: 100, ...(pageToken ? { pageToken } : {}) });
    if (!page.ok) throw new Error(page.error.message);
    messages.push(...page.value.messages);
    pageToken = page.value.nextPageToken;
  } while (pageToken);
});
afterAll(async () => {
  await pools.close();
  await service.close();
});

type Raw = {
  messageId: string;
  status: string;
  sourceBlockchainId: string;
  destinationBlockchainId: string;
  messageExecuted: boolean;
  receiptDelivered: boolean;
  rewardDetails: { address: string; value: string };
  sourceEvmChainId: string;
  destinationTransaction?: { gasSpent: string; delivererAddress: string; timestamp: number };
};

function rawMainnetRecords(): Raw[] {
  const out: Raw[] = [];
  let before: number | undefined;
  for (;;) {
    const page = service.store.page({ network: 'mainnet' }, before, 1000);
    out.push(...page.records.map((r) => JSON.parse(r) as Raw));
    if (!page.hasMore) return out;
    before = page.positions[page.positions.length - 1];
  }
}

describe('earnings per relayer and route', () => {
  it('rewards paid and owed, gas spent and failed executions are exact to the unit against the stored records', () => {
    const all = { from: 0, to: Number.MAX_SAFE_INTEGER };
    const earnings = routeEarnings(messages, all, (id) => nativeUsd(chainByBlockchainId(id)!));
    const raw = rawMainnetRecords().filter((r) => r.status !== 'pending' && r.destinationTransaction);
    expect(raw.length).toBeGreaterThan(500);
    const expected = new Map<string, { paid: Map<string, bigint>; owed: Map<string, bigint>; gas: bigint; failed: string[]; n: number }>();
    for (const r of raw) {
      const key = `${r.destinationTransaction!.delivererAddress.toLowerCase()}|${r.sourceBlockchainId}|${r.destinationBlockchainId}`;
      const e = expected.get(key) ?? { paid: new Map<string, bigint>(), owed: new Map<string, bigint>(), gas: 0n, failed: [] as string[], n: 0 };
      expected.set(key, e);
      const side = r.receiptDelivered ? e.paid : e.owed;
      const token = r.rewardDetails.address.toLowerCase();
      side.set(token, (side.get(token) ?? 0n) + BigInt(r.rewardDetails.value));
      e.gas += BigInt(r.destinationTransaction!.gasSpent);
      if (!r.messageExecuted) e.failed.push(r.messageId);
      e.n++;
    }
    expect(earnings.length).toBe(expected.size);
    for (const e of earnings) {
      const x = expected.get(`${e.relayer}|${e.source}|${e.destination}`)!;
      expect(e.deliveries).toBe(x.n);
      expect(e.gasSpent).toBe(x.gas);
      expect(new Map(e.paid.map((t) => [t.address.toLowerCase(), t.amount]))).toEqual(x.paid);
      expect(new Map(e.owed.map((t) => [t.address.toLowerCase(), t.amount]))).toEqual(x.owed);
      expect(e.failedExecutions.sort()).toEqual(x.failed.sort());
    }
    // Some deliveries failed (about 1 %), some rewards are still owed, and mainnet profit is known.
    expect(earnings.reduce((n, e) => n + e.failedExecutions.length, 0)).toBeGreaterThan(0);
    expect(earnings.some((e) => e.owed.some((t) => t.amount > 0n))).toBe(true);
    expect(earnings.every((e) => typeof e.profitUsd === 'number')).toBe(true);
  });

  it('a window keeps only the deliveries inside it, and an unknown gas price leaves profit unknown', () => {
    const now = clock.now();
    const lastHour = routeEarnings(messages, { from: now - 3_600_000, to: now }, () => undefined);
    const inHour = messages.filter(
      (m) => 'destinationTransaction' in m && m.status !== 'pending' && m.destinationTransaction.timestamp * 1000 >= now - 3_600_000,
    );
    expect(lastHour.reduce((n, e) => n + e.deliveries, 0)).toBe(inHour.length);
    expect(lastHour.every((e) => e.profitUsd === null)).toBe(true);
  });
});
