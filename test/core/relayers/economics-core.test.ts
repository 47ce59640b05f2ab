/**
 * The watched relayers' economics on the real core and the local service (dry wallet on): balances
 * read every five minutes while near empty, else every 30 min, counted in the budget, each equal to the
 * simulator's wallet at its read; burn and hours to empty from the cached deliveries equal the wallet's payments;
 * rewards paid and owed, gas and failed executions per route exact against the service's records; the
 * change announced as an event; after a restart the stored reads answer before any poll.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalService, type SimulatedService, type DemoRelayer } from '../../../src/local-service';
import { parseMessage, type TeleporterMessage } from '../../../src/shared/messages';
import type { CachedMessage, PollStatus } from '../../../src/shared/contract';
import type { RelayerEconomics, RouteEarnings } from '../../../src/shared/relayers';
import type { MonitorCore } from '../../../src/core/monitor-core';
import { JumpClock } from '../http-helpers';
import { coreOnService } from '../core-on-service';
import { tempDir } from '../helpers';
import { recordingProxy } from './recording-proxy';
import { chainByBlockchainId } from '../../../src/shared/chains';
import { heldHours } from '../../../src/core/relayers/fuel';
import { roundHoursToEmpty } from '../../../src/shared/time-to-empty';
import { MAX_OWED_MESSAGES_PER_CALL } from '../../../src/shared/policy';

const START = Date.UTC(2026, 0, 1, 12);
const HOUR = 3_600_000;

async function call<T>(core: MonitorCore, method: string, input?: unknown): Promise<T> {
  const r = await core.invoke(method, input);
  if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
  return r.value as T;
}

/** Every record the service holds, parsed. */
function allRecords(svc: SimulatedService): TeleporterMessage[] {
  const out: TeleporterMessage[] = [];
  let before: number | undefined;
  for (;;) {
    const page = svc.store.page({}, before, 5000);
    for (const r of page.records) out.push(parseMessage(JSON.parse(r))!);
    if (!page.hasMore) return out;
    before = page.positions[page.positions.length - 1];
  }
}

type Sums = Record<string, string>;
const add = (s: Sums, token: string, v: string) => (s[token.toLowerCase()] = (BigInt(s[token.toLowerCase()] ?? '0') + BigInt(v)).toString());
const sumsOf = (ts: RouteEarnings['paid']): Sums => Object.fromEntries(ts.map((t) => [t.token.toLowerCase(), t.value]));

describe('relayer economics on the core', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it(
    'reads a near-empty wallet every 5 min, a full one once, within the budget; fuel and earnings equal the service’s truth; kept across a restart',
    { timeout: 150_000 },
    async () => {
      const clock = new JumpClock(START);
      const svc = await startLocalService({
        clock,
        rate: 2,
        history: 2,
        dryWallet: true,
        warmStore: false,
        rateLimitPerMinute: { keyed: 1e6, anonymous: 1e6 },
      });
      cleanups.push(() => svc.close());
      const proxy = await recordingProxy(svc.url);
      cleanups.push(() => proxy.close());
      const tmp = tempDir();
      cleanups.push(() => tmp.cleanup());
      const dry = svc.simulator.wallets.dry!;
      const info = (await (await fetch(`${svc.url}/_local/info`)).json()) as { demoRelayers: DemoRelayer[] };
      const swift = info.demoRelayers.find((r) => r.address.toLowerCase() === dry.relayer)!;

      let core = await coreOnService(proxy.url, clock, cleanups, { dataDir: tmp.dir });
      const events: string[] = [];
      core.onEvent((e) => void events.push(e.type));
      // The day's earnings are judged against the whole day: the routes' first read takes it (the default is the last hour).
      await call(core, 'updateSettings', { routeHistoryHours: 24 });
      for (const r of swift.routes) await call(core, 'addRoute', { source: r.source, destination: r.destination, alert: false });
      await call(core, 'addRelayer', { address: swift.address, label: 'Swift', alert: false });
      // The minutes the dry wallet was read at, and those its fuel alert fired at.
      const dryPath = `/v1/chains/${chainByBlockchainId(dry.blockchainId)!.evmChainId}/addresses/${dry.relayer}/balances:getNative`;
      const dryReadMinutes: number[] = [];
      const firedMinutes: number[] = [];
      core.attachNotifier((n) => void (n.title.startsWith('Relayer low on gas') && firedMinutes.push((clock.now() - START) / 60_000)));
      for (let minute = 0; minute <= 10; minute++) {
        const before = proxy.targets.length;
        await call(core, 'pollNow');
        if (proxy.targets.slice(before).some((t) => t.toLowerCase().startsWith(dryPath.toLowerCase()))) dryReadMinutes.push(minute);
        if (minute < 10) await clock.advance(60_000);
      }
      const econ = await call<RelayerEconomics>(core, 'relayerEconomics');
      const at = clock.now();
      expect(econ.at).toBe(at);
      expect(econ.fuelThresholdHours).toBe(6);
      expect(econ.balanceReadEveryMinutes).toBe(5);
      expect(econ.balanceMaxAgeMinutes).toBe(30);
      expect(events).toContain('relayer-economics-changed');

      // One wallet per destination chain of its routes; each read at most every 5 minutes, at the service's truth.
      const destinations = [...new Set(swift.routes.map((r) => r.destination))].sort();
      expect(econ.fuel.map((f) => f.blockchainId).sort()).toEqual(destinations);
      const reads = proxy.targets.filter((t) => t.includes('balances:getNative'));
      for (const f of econ.fuel) {
        expect(f.relayer).toBe(dry.relayer);
        expect(f.relayerLabel).toBe('Swift');
        expect(f.readError).toBeNull();
        const truth = svc.simulator.wallets.truth(at).find((w) => w.relayer === dry.relayer && w.blockchainId === f.blockchainId)!;
        if (f.blockchainId === dry.blockchainId) {
          // The dry wallet (near empty) at its last read: the wallet then (now plus what it paid since).
          expect(f.readAt).toBe(START + dryReadMinutes[dryReadMinutes.length - 1]! * 60_000);
          expect(f.balance).toBe((BigInt(truth.balance) + truth.payments.filter((p) => p.at > f.readAt!).reduce((s, p) => s + BigInt(p.wei), 0n)).toString());
        } else {
          // A full wallet far from empty was read once, at minute 0: the wallet then (now plus what it paid since).
          expect(f.readAt).toBe(START);
          expect(f.balance).toBe((BigInt(truth.balance) + truth.payments.filter((p) => p.at > START).reduce((s, p) => s + BigInt(p.wei), 0n)).toString());
        }
        // Burn over the last hour and day: the wallet's payments (record times are whole seconds).
        const paid = truth.payments.map((p) => ({ at: Math.floor(p.at / 1000) * 1000, wei: BigInt(p.wei) })).filter((p) => p.at <= at);
        const hour = paid.filter((p) => p.at > at - HOUR).reduce((s, p) => s + p.wei, 0n);
        const day = paid.filter((p) => p.at > at - 24 * HOUR).reduce((s, p) => s + p.wei, 0n);
        expect(f.burnLastHour).toBe(hour.toString());
        // The day's rate is over the hours the figures hold (a watched route's first day holds less than 24).
        // (here the world is younger than a day: from the wallet's first delivery).
        const first = paid.filter((p) => p.at > at - 24 * HOUR).reduce((m, p) => Math.min(m, p.at), Infinity);
        expect(f.burnHours).toBe(heldHours(at, Math.max(first, econ.historyFrom ?? 0)));
        expect(f.burnHours).toBeLessThan(24);
        expect(f.burnPerHourLastDay).toBe(((day * 1000n) / BigInt(Math.round(f.burnHours * 1000))).toString());
        // Rounded as the Relayers view, the alert and the metric say it.
        if (hour > 0n) expect(f.hoursToEmpty).toBe(roundHoursToEmpty(Number((BigInt(truth.balance) * 1_000_000n) / hour) / 1_000_000));
      }
      // 11 cycles over 10 minutes: the dry wallet read at minute 0, then every 5 min but for one read brought forward to the
      // cycle its estimate crossed the threshold, where its alert fired; the full ones once (next at 30 min).
      expect(dryReadMinutes[0]).toBe(0);
      expect(firedMinutes).toHaveLength(1);
      expect(dryReadMinutes).toContain(firedMinutes[0]);
      for (let i = 1; i < dryReadMinutes.length; i++) {
        const gap = dryReadMinutes[i]! - dryReadMinutes[i - 1]!;
        if (dryReadMinutes[i] !== firedMinutes[0]) expect(gap).toBe(5);
        else expect(gap).toBeLessThan(5);
      }
      expect(econ.fuel.length).toBeGreaterThan(1);
      expect(reads).toHaveLength(dryReadMinutes.length + (econ.fuel.length - 1));
      // Every request, the balance reads too, is counted in the budget at its CU weight.
      const status = await call<PollStatus>(core, 'getPollStatus');
      expect(status.quota!.requestsToday).toBe(proxy.targets.length);
      expect(status.quota!.spentCuToday).toBe(20 * proxy.targets.length);

      // Earnings per route over the last hour and day, exact against the service's records. Paid or owed
      // as the core last read the record (a receipt shows once the core re-checks it or sees its carrier).
      const records = allRecords(svc);
      const cachedReceipt = new Map<string, boolean>();
      for (const m of records) {
        if (m.status !== 'delivered' && m.status !== 'delivered_source_not_indexed') continue;
        if (m.destinationTransaction.delivererAddress.toLowerCase() !== dry.relayer) continue;
        const c = await call<CachedMessage | null>(core, 'getMessage', { messageId: m.messageId });
        if (c && c.message.status !== 'unknown') cachedReceipt.set(m.messageId, c.message.receiptDelivered);
      }
      for (const window of ['hour', 'day'] as const) {
        const from = at - (window === 'hour' ? HOUR : 24 * HOUR);
        const expected = new Map<string, { paid: Sums; owed: Sums; all: Sums; gas: bigint; failed: string[]; feeOwed: string[]; deliveries: number }>();
        for (const m of records) {
          if (m.status !== 'delivered' && m.status !== 'delivered_source_not_indexed') continue;
          const t = m.destinationTransaction.timestamp * 1000;
          if (m.destinationTransaction.delivererAddress.toLowerCase() !== dry.relayer || t <= from || t > at) continue;
          const key = `${m.sourceBlockchainId}>${m.destinationBlockchainId}`;
          const e = expected.get(key) ?? { paid: {}, owed: {}, all: {}, gas: 0n, failed: [], feeOwed: [], deliveries: 0 };
          expect(cachedReceipt.has(m.messageId)).toBe(true);
          if (cachedReceipt.get(m.messageId)) expect(m.receiptDelivered).toBe(true);
          add(cachedReceipt.get(m.messageId) ? e.paid : e.owed, m.rewardDetails.address, m.rewardDetails.value);
          add(e.all, m.rewardDetails.address, m.rewardDetails.value);
          e.gas += BigInt(m.destinationTransaction.gasSpent);
          if (!m.messageExecuted) e.failed.push(m.messageId);
          const fee = BigInt(m.rewardDetails.value) > 0n && !/^0x0{40}$/.test(m.rewardDetails.address);
          if (!cachedReceipt.get(m.messageId) && fee) e.feeOwed.push(m.messageId);
          e.deliveries++;
          expected.set(key, e);
        }
        const got = econ.earnings[window];
        expect(got.map((g) => `${g.sourceChain}>${g.destinationChain}`).sort()).toEqual([...expected.keys()].sort());
        for (const g of got) {
          const e = expected.get(`${g.sourceChain}>${g.destinationChain}`)!;
          expect(g.relayerLabel).toBe('Swift');
          expect(g.deliveries).toBe(e.deliveries);
          expect(sumsOf(g.paid)).toEqual(e.paid);
          expect(sumsOf(g.owed)).toEqual(e.owed);
          const both: Sums = {};
          for (const t of [...g.paid, ...g.owed]) add(both, t.token, t.value);
          expect(both).toEqual(e.all);
          expect(g.gasSpent).toBe(e.gas.toString());
          expect(g.failedExecutions.count).toBe(e.failed.length);
          expect([...g.failedExecutions.messageIds].sort()).toEqual(e.failed.sort());
          // The Receipts call names the owed fees' messages, up to its cap, and none without a fee.
          expect(g.owedMessageIds).toHaveLength(Math.min(e.feeOwed.length, MAX_OWED_MESSAGES_PER_CALL));
          for (const id of g.owedMessageIds) expect(e.feeOwed).toContain(id);
          expect(g.redeemable).toBeNull();
        }
      }

      // A restart: the stored reads answer before any poll (no request made for it).
      await core.close();
      const requestsBefore = proxy.targets.length;
      core = await coreOnService(proxy.url, clock, cleanups, { dataDir: tmp.dir });
      const again = await call<RelayerEconomics>(core, 'relayerEconomics');
      expect(again.fuel.map((f) => [f.blockchainId, f.balance, f.readAt])).toEqual(econ.fuel.map((f) => [f.blockchainId, f.balance, f.readAt]));
      expect(proxy.targets.length).toBe(requestsBefore);
    },
  );
});
