/**
 * One cycle's balance reads (src/core/relayers/balance-reads.ts) on the real local service and a real
 * store: each wallet due is read once through the client (counted at the service) and its balance stored
 * as the wallet holds it; a wallet not due, or on a chain not read, or while the source is not read, is
 * not asked; a failed read is stored redacted; a read near empty reaches the fuel alert.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/shared/clock';
import type { DataApiClient } from '../../../src/core/data-api/client';
import { PoolRegistry } from '../../../src/core/data-api/pools';
import { BalanceReads } from '../../../src/core/relayers/balance-reads';
import type { WalletPayments } from '../../../src/core/relayers/economics';
import { FuelAlert, fuelEpisodeKey } from '../../../src/core/relayers/fuel-alert';
import { readsByWallet } from '../../../src/core/relayers/fuel-wallets';
import { ALWAYS_SEEING, type Sight } from '../../../src/core/sources/sight';
import { startLocalService, type SimulatedService } from '../../../src/local-service';
import { useEpisodeRig } from './episode-rig';
import { WALLET_WORLD, clientTo } from './wallet-world';

const MIN = 60_000;
const pools = new PoolRegistry();
const clock = new ManualClock();
let service: SimulatedService;
let client: DataApiClient;

beforeAll(async () => {
  service = await startLocalService({ clock, ...WALLET_WORLD, preload: 2_000, tickMs: 60_000 });
  client = clientTo(service.url, clock, pools);
});
afterAll(async () => {
  await pools.close();
  await service.close();
});

const cadence = { readEveryMs: 5 * MIN, maxAgeMs: 30 * MIN };
/** Two wallets of the world on different chains, with the payments of their last day. */
function twoWallets(): WalletPayments[] {
  const now = clock.now();
  const truth = service.simulator.wallets.truth(now);
  const first = truth.find((w) => w.payments.length > 0)!;
  const second = truth.find((w) => w.blockchainId !== first.blockchainId)!;
  return [first, second].map((w) => ({
    relayer: w.relayer,
    watched: { address: w.relayer, label: '', network: 'mainnet', silentMinutes: 30, pendingMinutes: 10, alert: true, createdAt: 0 },
    blockchainId: w.blockchainId,
    payments: w.payments.filter((p) => p.at <= now && p.at > now - 24 * 60 * MIN).map((p) => ({ at: p.at, wei: BigInt(p.wei) })),
  }));
}

describe('a cycle’s balance reads', () => {
  const rig = useEpisodeRig();
  const readsOf = (o: { sight?: Sight; client?: DataApiClient | null; thresholdHours?: number } = {}) => {
    const { store, door } = rig();
    const sight = o.sight ?? ALWAYS_SEEING;
    const thresholdHours = () => o.thresholdHours ?? 0;
    const alert = new FuelAlert({ door, sight, thresholdHours, ownChains: () => [] });
    const c = o.client === undefined ? client : o.client;
    const reads = new BalanceReads({ fuel: store.relayerFuel, client: () => c, redact: (s) => `redacted(${s.length})`, sight, cadence, thresholdHours, alert });
    return { store, reads, alert };
  };

  it('reads each wallet due once, stores what it holds; not again until its read is old', async () => {
    const { store, reads } = readsOf();
    const wallets = twoWallets();
    const asked = service.requestCount();
    await reads.readDue(wallets, readsByWallet(store.relayerFuel), clock.now());
    expect(service.requestCount() - asked).toBe(2);
    const truth = service.simulator.wallets.truth(clock.now());
    for (const w of wallets) {
      const r = readsByWallet(store.relayerFuel).get(`${w.relayer}|${w.blockchainId}`)!;
      expect(r).toMatchObject({ readAt: clock.now(), readError: null });
      expect(r.balance!.toString()).toBe(truth.find((t) => t.relayer === w.relayer && t.blockchainId === w.blockchainId)!.balance);
    }
    await clock.advance(10 * MIN);
    await reads.readDue(wallets, readsByWallet(store.relayerFuel), clock.now());
    expect(service.requestCount() - asked).toBe(2);
    await clock.advance(20 * MIN);
    await reads.readDue(wallets, readsByWallet(store.relayerFuel), clock.now());
    expect(service.requestCount() - asked).toBe(4);
  });

  it('asks nothing while the source is not read, nor for a wallet whose chain is not read, nor without a client', async () => {
    const wallets = twoWallets();
    const asked = service.requestCount();
    const blind = readsOf({ sight: { ...ALWAYS_SEEING, seeing: () => false } });
    await blind.reads.readDue(wallets, new Map(), clock.now());
    const none = readsOf({ client: null });
    await none.reads.readDue(wallets, new Map(), clock.now());
    expect(service.requestCount() - asked).toBe(0);
    expect(none.store.relayerFuel.all()).toEqual([]);
    const half = readsOf({ sight: { ...ALWAYS_SEEING, sees: (c) => c !== wallets[1]!.blockchainId } });
    await half.reads.readDue(wallets, new Map(), clock.now());
    expect(service.requestCount() - asked).toBe(1);
    expect(half.store.relayerFuel.all().map((r) => r.blockchainId)).toEqual([wallets[0]!.blockchainId]);
  });

  it('stores a failed read redacted; hands a read near empty to the fuel alert', async () => {
    const wallets = twoWallets();
    const gone = readsOf({ client: clientTo('http://127.0.0.1:9', clock, pools) });
    await gone.reads.readDue(wallets.slice(0, 1), new Map(), clock.now());
    expect(gone.store.relayerFuel.all()).toEqual([
      expect.objectContaining({ balance: null, readAt: null, triedAt: clock.now(), readError: expect.stringMatching(/^redacted\(\d+\)$/) }),
    ]);
    // A threshold no wallet is above: the wallet burning in the last hour fires.
    const burning = wallets[0]!;
    expect(burning.payments.some((p) => p.at > clock.now() - 60 * MIN)).toBe(true);
    const { reads, alert } = readsOf({ thresholdHours: 1e9 });
    await reads.readDue([burning], new Map(), clock.now());
    expect([...alert.firing()]).toEqual([fuelEpisodeKey(burning.relayer, burning.blockchainId)]);
  });
});
