/**
 * One core's day in `npm run bench:day`, judged: its spend by judgeSpend (what the service counted for
 * its caller against the published plan, from 00:00 UTC to the run's end); against the ground truth
 * (`stuck` included) 0 missed, 0 duplicates, 0 unexpected by the end of the settle; where the plan
 * keeps up (day-keeps-up.ts) latency; and "behind" (the poll status's `behindMs`, the status bar's
 * "reads N min behind") against its own target and cap. Each figure is named with the plan and the
 * day's rate (missedFreeAt20), so one JSON line holds every day.
 */
import { compare, latencies, percentile, type Detection, type ExpectedTransition, type Hit } from '../test/support/ground-truth';
import { GUARANTEED_LATENESS_S, MAX_LATENESS_S, STALL_CATCH_UP_MS, TRAIL_PERIOD_MS } from '../src/shared/policy';
import type { SpendVerdict } from './judge';
import type { KeepsUp } from './day-keeps-up';
import { rateSuffix } from './day-shapes';

const MIN = 60_000;
/** The status bar says "reads N min behind" from a minute on. */
const SHOWN_BEHIND_MS = MIN;
/** Where the plan cannot keep up, the status bar must say so within this long of the busy hours' start. */
export const SAY_BEHIND_WITHIN_MIN = 10;

export interface DayFacts {
  rate: number;
  intervalMs: number;
  dayStart: number;
  /** When the traffic calmed (the busy hours' end; the day's end for the calm day). */
  calmAt: number;
  /** The indexer stalls the day had (clock ms): what happened in one is held until its catch-up. */
  stalls: readonly { start: number; end: number }[];
  expected: ReadonlyMap<string, ExpectedTransition>;
}

export interface CoreDay {
  plan: 'keyless' | 'free';
  keeps: KeepsUp;
  detected: readonly Detection[];
  /** The poll status's `behindMs` after each cycle of the busy and calm hours (null: 0). */
  behind: readonly { at: number; ms: number }[];
  spend: SpendVerdict;
}

const round = (n: number | null, d = 1) => (n === null ? null : Math.round(n * 10 ** d) / 10 ** d);
const byKind = (keys: string[]) =>
  keys.reduce<Record<string, number>>((m, k) => ((m[k.slice(k.indexOf(':') + 1)] = (m[k.slice(k.indexOf(':') + 1)] ?? 0) + 1), m), {});

/** The trailing sweep's bound: the next starts within 5 min and reaches down within its 5 min (docs/poller.md "Late records"). */
export const sweepBoundMs = (intervalMs: number) => 2 * TRAIL_PERIOD_MS + intervalMs;

/**
 * How long after it became visible a late record may be reported: up to GUARANTEED_LATENESS_S late, its
 * lag + 2 intervals (within 2 intervals of appearing); later (up to MAX_LATENESS_S), or held by a stall
 * (caught within about 10 min of the resume), within the trailing sweep's bound.
 */
export const lateBoundMs = (lagMs: number, intervalMs: number, heldByStall: boolean) =>
  lagMs <= GUARANTEED_LATENESS_S * 1000 && !heldByStall ? 2 * intervalMs : sweepBoundMs(intervalMs);

/**
 * Behind's target (p95 over the cycles of the busy and calm hours) and cap (max), in minutes. Keeping up:
 * the status bar says nothing 95 % of the time, and at most the catch-up after a stall (STALL_CATCH_UP_MS).
 * Not keeping up (echo mode, docs/limits.md): about MAX_LATENESS_S in a steady state, p95 within it and
 * 2 intervals; at most that, the day's longest stall (echoes wait for the catch-up) and STALL_CATCH_UP_MS after it.
 */
export function behindLimits(keeps: boolean, intervalMs: number, longestStallMs: number): { p95Min: number; maxMin: number } {
  if (keeps) return { p95Min: SHOWN_BEHIND_MS / MIN, maxMin: STALL_CATCH_UP_MS / MIN };
  const p95 = MAX_LATENESS_S * 1000 + 2 * intervalMs;
  return { p95Min: p95 / MIN, maxMin: round((p95 + longestStallMs + STALL_CATCH_UP_MS) / MIN)! };
}

export function judgeCoreDay(f: DayFacts, c: CoreDay) {
  const name = (figure: string) => `${figure}${c.plan === 'free' ? 'Free' : 'Keyless'}${rateSuffix(f.rate)}`;
  const judged = compare(f.expected, c.detected);
  const { onTime, late } = latencies(judged.hits, f.intervalMs);
  const overBy = (h: Hit) =>
    h.detectedAt -
    h.visibleAt -
    lateBoundMs(
      h.visibleAt - h.happenedAt,
      f.intervalMs,
      f.stalls.some((st) => h.happenedAt >= st.start && h.happenedAt < st.end),
    );
  const lateOver = judged.hits.filter((h) => h.visibleAt - h.happenedAt > f.intervalMs && overBy(h) > 0);
  const longestStallMs = Math.max(0, ...f.stalls.map((st) => st.end - st.start));
  const behindSorted = c.behind.map((b) => b.ms).sort((a, b) => a - b);
  const saidAt = c.behind.find((b) => b.ms >= SHOWN_BEHIND_MS)?.at;
  const saidBehindAfterMin = saidAt === undefined ? null : round((saidAt - f.dayStart) / MIN);
  const limits = behindLimits(c.keeps.keepsUp, f.intervalMs, longestStallMs);
  // What the busy hours did that was still unfound when the traffic calmed, and when the last of it was found.
  const busyHits = judged.hits.filter((h) => h.visibleAt < f.calmAt);
  const foundAt = new Map(busyHits.map((h) => [h.key, h.detectedAt]));
  const unfoundAtCalm = [...f.expected].filter(([k, e]) => !e.optional && e.visibleAt < f.calmAt && !((foundAt.get(k) ?? Infinity) <= f.calmAt)).length;
  const lastFound = busyHits.reduce((m, h) => Math.max(m, h.detectedAt), f.calmAt);

  const s = c.spend;
  const figures: Record<string, [number | null, number]> = {
    [name('cuSpent')]: [s.cu, s.dayAllowanceCu],
    [name('peakMinuteCu')]: [s.peakMinuteCu, s.minuteLimitCu],
    [name('refused')]: [s.refused, 0],
    [name('missed')]: [judged.missed.length, 0],
    [name('duplicates')]: [judged.duplicates, 0],
    [name('unexpected')]: [judged.unexpected.length, 0],
    [name('behindP95Min')]: [round(percentile(behindSorted, 95)! / MIN), limits.p95Min],
    [name('behindMaxMin')]: [round((behindSorted.at(-1) ?? 0) / MIN), limits.maxMin],
  };
  if (c.keeps.keepsUp) {
    // No on-time report at all is no figure (a missed target), never 0.
    const p95 = percentile(onTime, 95);
    figures[name('onTimeP95Intervals')] = [p95 === null ? null : round(p95 / f.intervalMs, 2), 2];
    figures[name('lateOverBound')] = [lateOver.length, 0];
  } else figures[name('saidBehindAfterMin')] = [saidBehindAfterMin, SAY_BEHIND_WITHIN_MIN];

  const result = {
    plan: c.plan,
    keepsUp: c.keeps,
    spend: s,
    missed: judged.missed.length,
    duplicates: judged.duplicates,
    unexpected: judged.unexpected.length,
    missedByKind: byKind(judged.missed),
    unexpectedByKind: byKind(judged.unexpected),
    firstMissed: judged.missed.slice(0, 5),
    // When the first few missed became visible and happened (min from the day's start): enough to see why.
    firstMissedAt: judged.missed.slice(0, 5).map((k) => {
      const e = f.expected.get(k);
      return e ? { key: k, happenedMin: round((e.happenedAt - f.dayStart) / MIN), visibleMin: round((e.visibleAt - f.dayStart) / MIN) } : { key: k };
    }),
    firstUnexpected: judged.unexpected.slice(0, 5),
    stuckExpected: [...f.expected].filter(([k, e]) => k.endsWith(':stuck') && !e.optional).length,
    stuckReported: c.detected.filter((d) => d.kind === 'stuck').length,
    onTimeLatencyMs: {
      count: onTime.length,
      p50: round(percentile(onTime, 50), 0),
      p95: round(percentile(onTime, 95), 0),
      max: round(onTime.at(-1) ?? null, 0),
    },
    late: {
      count: late.length,
      maxLagMin: round(late.reduce((m, l) => Math.max(m, l.lag), 0) / MIN),
      maxAfterVisibleMin: round(late.reduce((m, l) => Math.max(m, l.afterVisible), 0) / MIN),
      overBound: lateOver.length,
      // By how much the worst of them missed its bound (s): a hair or minutes.
      worstOverBoundS: round(lateOver.reduce((m, h) => Math.max(m, overBy(h)), 0) / 1000),
      // The first few (s from the day's start; lag and over in s): enough to see why.
      firstOver: lateOver.slice(0, 5).map((h) => ({
        key: h.key,
        visibleS: round((h.visibleAt - f.dayStart) / 1000),
        lagS: round((h.visibleAt - h.happenedAt) / 1000),
        afterVisibleS: round((h.detectedAt - h.visibleAt) / 1000),
        overS: round(overBy(h) / 1000),
      })),
    },
    behindMin: {
      p50: round(percentile(behindSorted, 50)! / MIN),
      p95: round(percentile(behindSorted, 95)! / MIN),
      max: round((behindSorted.at(-1) ?? 0) / MIN),
      cyclesShown: c.behind.filter((b) => b.ms >= SHOWN_BEHIND_MS).length,
      cycles: c.behind.length,
      firstShownAfterMin: saidBehindAfterMin,
      limits,
    },
    unfoundWhenCalmed: unfoundAtCalm,
    lastBusyFoundAfterCalmMin: round((lastFound - f.calmAt) / MIN),
  };
  return { result, figures, judged };
}
