/**
 * Fuel against the simulator's truth: the core's client reads the demo relayers' balances from the
 * real service over HTTP (counted in its request budget), burn rates come from the deliveries' gasSpent
 * in the service's SQLite store, and the dry wallet's alert fires before its deliveries stop.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/shared/clock';
import { chainByBlockchainId } from '../../../src/shared/chains';
import { RequestBudget } from '../../../src/core/data-api/budget';
import type { DataApiClient } from '../../../src/core/data-api/client';
import { PoolRegistry } from '../../../src/core/data-api/pools';
import { decideFuelAlert, fuelFigures, type FuelAlertState, type GasPayment } from '../../../src/core/relayers/fuel';
import { startLocalService, type SimulatedService } from '../../../src/local-service';
import { WALLET_WORLD, clientTo } from './wallet-world';

const pools = new PoolRegistry();
const clock = new ManualClock();
let service: SimulatedService;
let budget: RequestBudget;
let client: DataApiClient;

beforeAll(async () => {
  service = await startLocalService({ clock, ...WALLET_WORLD, tickMs: 60_000 });
  budget = new RequestBudget(clock, 100_000);
  client = clientTo(service.url, clock, pools, budget);
});
afterAll(async () => {
  await pools.close();
  await service.close();
});

/** Delivered records' payments per relayer|chain and message, kept up to date from the store's change stream. */
const paid = new Map<string, Map<string, GasPayment>>();
function notePayment(raw: Record<string, unknown>): void {
  const r = raw as {
    messageId: string;
    status: string;
    destinationBlockchainId: string;
    destinationTransaction?: { gasSpent: string; delivererAddress: string; timestamp: number };
  };
  const tx = r.destinationTransaction;
  if (r.status === 'pending' || !tx) return;
  const key = `${tx.delivererAddress.toLowerCase()}|${r.destinationBlockchainId}`;
  let m = paid.get(key);
  if (!m) paid.set(key, (m = new Map()));
  m.set(r.messageId, { at: tx.timestamp * 1000, wei: BigInt(tx.gasSpent) });
}
const paymentsSeen = (relayer: string, blockchainId: string): GasPayment[] => [...(paid.get(`${relayer}|${blockchainId}`)?.values() ?? [])];

/** What the relayer paid on the chain, read from the delivered records in the store (second precision, as records give). */
function paymentsInRecords(relayer: string, blockchainId: string): GasPayment[] {
  const out: GasPayment[] = [];
  let before: number | undefined;
  for (;;) {
    const page = service.store.page({ destination: { kind: 'blockchainId', value: blockchainId } }, before, 1000);
    for (const raw of page.records) {
      const r = JSON.parse(raw) as { status: string; destinationTransaction?: { gasSpent: string; delivererAddress: string; timestamp: number } };
      const tx = r.destinationTransaction;
      if (r.status !== 'pending' && tx && tx.delivererAddress.toLowerCase() === relayer) out.push({ at: tx.timestamp * 1000, wei: BigInt(tx.gasSpent) });
    }
    if (!page.hasMore) return out;
    before = page.positions[page.positions.length - 1];
  }
}

const truthOf = (relayer: string, blockchainId: string) =>
  service.simulator.wallets.truth(service.simulator.now()).find((w) => w.relayer === relayer && w.blockchainId === blockchainId)!;

describe('fuel per relayer and chain', () => {
  it('reads every wallet through the client (each read counted in the budget); burn and hours to empty match the truth', async () => {
    const wallets = service.simulator.wallets.truth(service.simulator.now());
    const usedBefore = budget.usedLastMinute();
    for (const w of wallets) {
      const chain = chainByBlockchainId(w.blockchainId)!;
      const read = await client.getNativeBalance(chain.evmChainId, w.relayer);
      if (!read.ok) throw new Error(read.error.message);
      expect(read.value.balance).toBe(BigInt(w.balance));
      const now = clock.now();
      const figures = fuelFigures(read.value.balance, paymentsInRecords(w.relayer, w.blockchainId), now);
      const truth = fuelFigures(
        BigInt(w.balance),
        w.payments.map((p) => ({ at: Math.floor(p.at / 1000) * 1000, wei: BigInt(p.wei) })),
        now,
      );
      expect(figures).toEqual(truth);
      if (truth.hoursToEmpty !== null) expect(Math.abs(figures.hoursToEmpty! - Number(truth.balance) / Number(truth.burnPerHourLastHour))).toBeLessThan(0.01);
    }
    expect(budget.usedLastMinute() - usedBefore).toBe(wallets.length);
  });

  it('the dry wallet is alerted before its deliveries stop, and resolved when refilled; a full wallet never alerts', async () => {
    const dry = service.simulator.wallets.dry!;
    const chain = chainByBlockchainId(dry.blockchainId)!;
    const full = service.simulator.wallets.truth(service.simulator.now()).find((w) => w.blockchainId !== dry.blockchainId && w.deliveries > 50)!;
    const fullChain = chainByBlockchainId(full.blockchainId)!;
    const stallsBefore = truthOf(dry.relayer, dry.blockchainId).stalls.length;
    // Every record in the store once, then each change as the store receives it.
    let before: number | undefined;
    for (;;) {
      const page = service.store.page({}, before, 5000);
      for (const raw of page.records) notePayment(JSON.parse(raw) as Record<string, unknown>);
      if (!page.hasMore) break;
      before = page.positions[page.positions.length - 1];
    }
    const unsubscribe = service.onRecordChange((changes) => changes.forEach((c) => notePayment(c.record)));
    let state: FuelAlertState = { firing: false };
    let fullState: FuelAlertState = { firing: false };
    const events: { kind: string; at: number; text: string }[] = [];
    // Four hours in one-minute reads: two refills and a stall in the middle of a period happen inside.
    for (let minute = 0; minute < 240; minute++) {
      await clock.advance(60_000);
      const read = await client.getNativeBalance(chain.evmChainId, dry.relayer);
      if (!read.ok) throw new Error(read.error.message);
      const payments = paymentsSeen(dry.relayer, dry.blockchainId);
      const figures = fuelFigures(read.value.balance, payments, clock.now());
      const d = decideFuelAlert(state, { figures, payments, at: clock.now() }, 6, { relayer: 'Swift', chain: chain.name });
      state = d.state;
      if (d.change) events.push({ kind: d.change.kind, at: clock.now(), text: d.change.text });
      if (minute % 10 !== 0) continue;
      const fullRead = await client.getNativeBalance(fullChain.evmChainId, full.relayer);
      if (!fullRead.ok) throw new Error(fullRead.error.message);
      const fullPayments = paymentsSeen(full.relayer, full.blockchainId);
      const fullFigures = fuelFigures(fullRead.value.balance, fullPayments, clock.now());
      const f = decideFuelAlert(fullState, { figures: fullFigures, payments: fullPayments, at: clock.now() }, 6, {
        relayer: 'x',
        chain: 'y',
      });
      fullState = f.state;
      expect(f.change).toBeNull();
    }
    unsubscribe();
    const firstFire = events.find((e) => e.kind === 'fire')!;
    // A stall before the first read (a backlog left from before the window) cannot be judged.
    const stalls = truthOf(dry.relayer, dry.blockchainId)
      .stalls.slice(stallsBefore)
      .filter((t) => t > firstFire.at);
    expect(stalls.length).toBeGreaterThan(0);
    expect(firstFire.text).toMatch(
      new RegExp(`^Relayer Swift will run out of gas on ${chain.name} in about \\d+ (min|h|h \\d+ min) at the last hour's rate\\.$`),
    );
    // Each stall in the window came after an alert that was still firing (fired after the last refill).
    for (const stall of stalls) {
      const last = events.filter((e) => e.at <= stall).pop();
      expect(last?.kind).toBe('fire');
      expect(stall - last!.at).toBeGreaterThan(0);
    }
    expect(firstFire.at).toBeLessThan(stalls[0]!);
    expect(events.some((e) => e.kind === 'resolve')).toBe(true);
  }, 90_000);
});
