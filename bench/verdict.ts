/**
 * The one verdict of the benches that run a watcher (the core, the headless watcher) beside the fair
 * pollers: `npm run bench`, `bench:grid` and `bench:headless`. Every contender is judged by the same
 * rule, from the ground truth and what the service counted (bench/judge.ts), never its own counters:
 * - a fair poller counts when it is clean (0 missed, 0 duplicates, 0 unexpected) and keeps the spend rule;
 * - ours passes when it is clean, keeps the spend rule, and, where a fair poller counts, spent no more
 *   CU at the service than the cheapest one that counts (`oursOverCheaperFair` ≤ 1); where none counts it
 *   must still be clean and keep the rule (the caller shows how far behind it fell);
 * - where the plan keeps up (the run's physical limit fits the plan's day pace, bench/physical-limit.ts,
 *   and so do the late-record reads of the world's rate, bench/day-keeps-up.ts: the callers decide it from
 *   the world and the published plan, never from the watcher), on-time detection p95 within 2 intervals
 *   and every late record within its lag + 2 intervals; where it does not, every transition found within
 *   the stated bound of a list busier than the plan (statedBoundMs after it became visible: docs/limits.md,
 *   echo mode), later but found.
 * The result's `targets` go to judgeTargets (bench/targets.ts): each names what was missed.
 */
import { MAX_LATENESS_S } from '../src/shared/policy';
import type { SpendVerdict } from './judge';

export interface Contender {
  name: string;
  missed: number;
  duplicates: number;
  unexpected: number;
  /** CU and requests the service charged it. */
  cu: number;
  requests: number;
  /** Its spend by the one rule; null: the service's limits lifted, no plan to judge spend by. */
  spend: SpendVerdict | null;
}

/** A fair poller not run (its reason), e.g. one page per address per interval cannot fit the plan's minute. */
export interface NotRun {
  name: string;
  notRun: string;
}

export interface Standing {
  name: string;
  counts: boolean;
  /** Why it does not count (null: it does). */
  why: string | null;
  cu: number | null;
  requests: number | null;
}

/** Ours' detection, in poll intervals (null: nothing on time was measured). */
export interface DetectionFigures {
  p95Intervals: number | null;
  lateOverBound: number;
  /** Transitions reported later than statedBoundMs after they became visible (judged where the plan does not keep up). */
  overStatedBound: number;
}

/**
 * A list busier than the plan (echo mode, docs/limits.md): a change shows up to MAX_LATENESS_S after its
 * span was first read, that read a cycle after the change became visible, the echo one more cycle.
 */
export const statedBoundMs = (intervalMs: number): number => MAX_LATENESS_S * 1000 + 2 * intervalMs;

/** How many hits were reported later than the stated bound after they became visible. */
export const overStatedBound = (hits: readonly { visibleAt: number; detectedAt: number }[], intervalMs: number): number =>
  hits.filter((h) => h.detectedAt - h.visibleAt > statedBoundMs(intervalMs)).length;

type Target = [value: number | null, atMost: number];

const unclean = (c: Contender) => (c.missed || c.duplicates || c.unexpected ? `${c.missed} missed, ${c.duplicates} dup, ${c.unexpected} unexpected` : null);

/** Why a contender does not keep the fair pollers' rule, every reason (null: it does). */
function why(p: Contender | NotRun): string | null {
  if ('notRun' in p) return `not run: ${p.notRun}`;
  return [p.spend?.over, unclean(p)].filter((w) => w).join('; ') || null;
}

/** The spend rule as targets: the day's pace to the run's end, the minute limit, no 429. */
export function spendTargets(s: SpendVerdict | null): Record<string, Target> {
  if (!s) return {};
  return { dayCu: [s.cu, s.dayAllowanceCu], peakMinuteCu: [s.peakMinuteCu, s.minuteLimitCu], refused: [s.refused, 0] };
}

export function judgeWatcher(ours: Contender, fair: readonly (Contender | NotRun)[], detection: DetectionFigures, keepsUp: boolean) {
  const standings: Standing[] = fair.map((p) => {
    const reason = why(p);
    return { name: p.name, counts: reason === null, why: reason, cu: 'cu' in p ? p.cu : null, requests: 'requests' in p ? p.requests : null };
  });
  const counting = standings.filter((s) => s.counts);
  const cheaper = counting.length ? counting.reduce((a, b) => (b.cu! < a.cu! ? b : a)) : null;
  const oursOverCheaperFair = cheaper ? Math.round((ours.cu / Math.max(1, cheaper.cu!)) * 1000) / 1000 : null;
  const targets: Record<string, Target> = {
    missed: [ours.missed, 0],
    duplicates: [ours.duplicates, 0],
    unexpected: [ours.unexpected, 0],
    ...spendTargets(ours.spend),
    ...(cheaper ? { oursOverCheaperFair: [oursOverCheaperFair, 1] as Target } : {}),
    ...(keepsUp
      ? { p95Intervals: [detection.p95Intervals, 2] as Target, lateOverBound: [detection.lateOverBound, 0] as Target }
      : { overStatedBound: [detection.overStatedBound, 0] as Target }),
  };
  return {
    fair: standings,
    cheaperFair: cheaper && { name: cheaper.name, cu: cheaper.cu!, requests: cheaper.requests! },
    oursOverCheaperFair,
    /** Ours' own standing by the fair pollers' rule (what it would be as one of them). */
    oursWhy: why(ours),
    keepsUp,
    targets,
  };
}

export type WatcherVerdict = ReturnType<typeof judgeWatcher>;
