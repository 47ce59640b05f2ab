/**
 * When the core reads a watched relayer's balance (src/core/relayers/fuel-reads.ts), and the fuel alert
 * it raises, on the real core and the local service with the dry demo wallet (one run of 70 simulated
 * minutes of five-minute polls, shared by both checks), counted at the service: a wallet far from empty
 * is read once and then only when its read is 30 min old, and between reads its time to empty (the last
 * read less the gas burnt since) stays within 5 % of the wallet's truth; the dry wallet, near empty or
 * alerting, is read every 5 min (never sooner). Its alert (a warning) fires before its deliveries stop
 * and resolves (a success) after the refill; no other wallet alerts.
 */
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { chainByBlockchainId, chainLabel } from '../../../src/shared/chains';
import type { ActivityPage, AlertEntry } from '../../../src/shared/contract';
import { readDue } from '../../../src/core/relayers/fuel-reads';
import { timeToEmptyStep } from '../../../src/shared/time-to-empty';
import type { FuelRead } from '../../../src/core/store/relayer-fuel';
import { CYCLE_MS, dryWalletRun, type DryWalletRun } from '../../support/dry-wallet-run';

const MIN = 60_000;
// No history: the dry wallet opens at 13:00 with its few dozen deliveries, runs dry, and is refilled at 14:00.
const START = Date.UTC(2026, 0, 1, 13);
const REFILL_AT = Date.UTC(2026, 0, 1, 14);
const RUN_MS = 70 * MIN;

describe('the dry wallet world on the real core, 70 minutes of five-minute polls', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  let run: DryWalletRun;
  /** Balance reads per wallet (relayer|evm chain ID) at the service, with the clock at each. */
  const readsAt = new Map<string, number[]>();
  let estimatesJudged = 0;
  let worstEstimate = 0;
  const maxAges: number[] = [];
  let lowSeen = false;

  beforeAll(async () => {
    let counted = 0;
    run = await dryWalletRun(
      {
        start: START,
        end: START + RUN_MS,
        onCycle: ({ now, targets, econ }, { svc, dry }) => {
          for (const t of targets.slice(counted)) {
            const m = /\/v1\/chains\/([^/]+)\/addresses\/([^/]+)\/balances:getNative/.exec(t);
            if (m) readsAt.set(`${m[2]!.toLowerCase()}|${m[1]}`, [...(readsAt.get(`${m[2]!.toLowerCase()}|${m[1]}`) ?? []), now]);
          }
          counted = targets.length;
          maxAges.push(econ.balanceMaxAgeMinutes);
          lowSeen ||= econ.fuel.some((f) => f.low && f.relayer === dry.relayer && f.blockchainId === dry.blockchainId);
          const truth = svc.simulator.wallets.truth(svc.simulator.now());
          // A far wallet not read this cycle: its time to empty is the last read less the gas burnt since, as the wallet holds it.
          for (const f of econ.fuel) {
            if (f.readAt === null || f.readAt === now || f.hoursToEmpty === null || f.low) continue;
            if (f.relayer === dry.relayer && f.blockchainId === dry.blockchainId) continue;
            const w = truth.find((x) => x.relayer === f.relayer && x.blockchainId === f.blockchainId)!;
            const hour = w.payments.filter((p) => p.at > now - 60 * MIN && p.at <= now).reduce((s, p) => s + BigInt(p.wei), 0n);
            if (hour === 0n) continue;
            const want = Number(BigInt(w.balance)) / Number(hour);
            // The figure is rounded to its step (src/shared/time-to-empty.ts): judged beyond half of it.
            const off = Math.max(0, Math.abs(f.hoursToEmpty - want) - timeToEmptyStep(want) / 2);
            worstEstimate = Math.max(worstEstimate, off / want);
            estimatesJudged++;
          }
        },
      },
      cleanups,
    );
  }, 240_000);

  const dryTruth = () =>
    run.svc.simulator.wallets.truth(run.clock.now()).find((w) => w.relayer === run.dry.relayer && w.blockchainId === run.dry.blockchainId)!;
  const dryName = () => run.watched.find((r) => r.address.toLowerCase() === run.dry.relayer)!.name;

  it('reads a far wallet every 30 min with a true estimate between; the dry one every 5 min, alerted before it stalls', () => {
    expect(maxAges.length).toBe(RUN_MS / CYCLE_MS + 1);
    for (const age of maxAges) expect(age).toBe(30);
    const dryKey = `${run.dry.relayer}|${chainByBlockchainId(run.dry.blockchainId)!.evmChainId}`;
    const dryReads = readsAt.get(dryKey) ?? [];
    const farReads = [...readsAt].filter(([k]) => k !== dryKey);
    expect(farReads.length).toBeGreaterThanOrEqual(2);
    for (const [, times] of farReads) {
      // First seen in the first cycles, then read again only when 30 min old: 3 reads in 70 minutes, not 15.
      expect(times.length).toBeLessThanOrEqual(3);
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBe(30 * MIN);
    }
    expect(estimatesJudged).toBeGreaterThan(10);
    expect(worstEstimate).toBeLessThan(0.05);
    // The dry wallet is always within twice the 6 h threshold (or alerting): every cycle, never sooner than 5 min.
    // (it is a target from its first delivery on, the first or second cycle: no history before 13:00).
    expect(dryReads.length).toBeGreaterThanOrEqual(RUN_MS / CYCLE_MS);
    expect(dryReads[dryReads.length - 1]).toBe(START + RUN_MS);
    for (let i = 1; i < dryReads.length; i++) expect(dryReads[i]! - dryReads[i - 1]!).toBe(5 * MIN);
    // So its alert still comes before each stall.
    const fired = run.shown.filter((n) => n.title.startsWith(`Relayer low on gas: ${dryName()} on `));
    const stalls = dryTruth().stalls;
    expect(stalls.length).toBeGreaterThanOrEqual(1);
    for (const stall of stalls) expect(fired.some((f) => f.at < stall)).toBe(true);
  });

  it('warns before the dry wallet stops delivering and announces the refill; no false alert', () => {
    const name = dryName();
    const chain = chainLabel(run.dry.blockchainId);
    expect(run.watched.length).toBeGreaterThanOrEqual(2);
    const fuel = run.shown.filter((n) => /gas|refilled/.test(n.title));
    const fired = fuel.filter((n) => n.title === `Relayer low on gas: ${name} on ${chain}`);
    const resolved = fuel.filter((n) => n.title === `Relayer refilled: ${name} on ${chain}`);
    // Nothing else: only the dry wallet's alert and its refill.
    expect(fuel).toHaveLength(fired.length + resolved.length);
    expect(fired.length).toBeGreaterThanOrEqual(1);
    expect(fired[0]!.severity).toBe('warning');
    expect(fired[0]!.body).toMatch(new RegExp(`^Relayer ${name} will run out of gas on ${chain} in about \\d+ (min|h|h \\d+ min) at the last hour's rate\\.$`));
    expect(lowSeen).toBe(true);
    // Each time the wallet could not pay during the run, an alert was firing before.
    const inRun = dryTruth().stalls.filter((t) => t > START && t < REFILL_AT + 12 * MIN);
    expect(inRun.length).toBeGreaterThanOrEqual(1);
    for (const stall of inRun) expect(fired.some((f) => f.at < stall)).toBe(true);
    // The refill at 14:00 resolves it, once, as a success.
    expect(resolved).toHaveLength(1);
    expect(resolved[0]!.severity).toBe('success');
    expect(resolved[0]!.at).toBeGreaterThanOrEqual(REFILL_AT);
    expect(resolved[0]!.at).toBeGreaterThan(fired[0]!.at);
  });

  it('lists each fuel alert and the refill in Activity as they were announced, naming the relayer and its chain', async () => {
    const r = await run.core.invoke('listActivity', { kinds: [], alertKinds: ['fuel_low'], limit: 500 });
    if (!r.ok) throw new Error(r.error.message);
    const entries = (r.value as ActivityPage).items.filter((i): i is AlertEntry => i.kind === 'alert').reverse();
    const announced = run.shown.filter((n) => /gas|refilled/.test(n.title));
    expect(entries.map((e) => `${e.phase}:${e.severity}`)).toEqual(expect.arrayContaining(['fire:warning', 'resolve:success']));
    expect(entries.map((e) => [e.title, e.body, e.severity, e.at])).toEqual(announced.map((n) => [n.title, n.body, n.severity, n.at]));
    for (const e of entries) {
      expect(e.relayer?.toLowerCase()).toBe(run.dry.relayer);
      expect(e.destinationChain).toBe(run.dry.blockchainId);
      expect(e.subject).toBe(`${dryName()} on ${chainLabel(run.dry.blockchainId)}`);
    }
  });
});

describe('readDue', () => {
  const NOW = Date.UTC(2026, 0, 1, 12);
  const cadence = { readEveryMs: 5 * MIN, maxAgeMs: 30 * MIN };
  const read = (agoMs: number, readError: string | null = null): FuelRead => ({
    relayer: '0xabc',
    blockchainId: 'chain',
    balance: 10n,
    symbol: 'AVAX',
    decimals: 18,
    usdPrice: null,
    readAt: NOW - agoMs,
    triedAt: NOW - agoMs,
    readError,
  });
  const far = { hoursToEmpty: 100, thresholdHours: 6, firing: false };

  it('reads a wallet never read at once, and a failed read again after a minute', () => {
    expect(readDue(undefined, NOW, cadence, far)).toBe(true);
    expect(readDue(read(59_000, 'The Data API answered 503.'), NOW, cadence, far)).toBe(false);
    expect(readDue(read(60_000, 'The Data API answered 503.'), NOW, cadence, far)).toBe(true);
  });

  it('reads a far or quiet wallet only when its read is 30 min old', () => {
    expect(readDue(read(29 * MIN), NOW, cadence, far)).toBe(false);
    expect(readDue(read(29 * MIN), NOW, cadence, { ...far, hoursToEmpty: null })).toBe(false);
    expect(readDue(read(30 * MIN), NOW, cadence, far)).toBe(true);
    expect(readDue(read(30 * MIN), NOW, cadence, { ...far, hoursToEmpty: null })).toBe(true);
  });

  it('reads a wallet within twice the threshold, or alerting, every 5 min, never sooner', () => {
    const near = { ...far, hoursToEmpty: 12 };
    expect(readDue(read(5 * MIN), NOW, cadence, near)).toBe(true);
    expect(readDue(read(5 * MIN), NOW, cadence, { ...far, hoursToEmpty: 12.5 })).toBe(false);
    expect(readDue(read(5 * MIN), NOW, cadence, { ...far, firing: true })).toBe(true);
    expect(readDue(read(5 * MIN - 1), NOW, cadence, near)).toBe(false);
    expect(readDue(read(5 * MIN - 1), NOW, cadence, { ...far, firing: true })).toBe(false);
  });

  it('brings a read forward to the cycle where the estimate between reads crosses the threshold', () => {
    const crossed = { ...far, hoursToEmpty: 6 };
    expect(readDue(read(1 * MIN), NOW, cadence, crossed)).toBe(true);
    expect(readDue(read(1 * MIN), NOW, cadence, { ...far, hoursToEmpty: 6.1 })).toBe(false);
    // Alerting already: the refill is looked for at the usual cadence.
    expect(readDue(read(1 * MIN), NOW, cadence, { ...crossed, firing: true })).toBe(false);
  });
});
