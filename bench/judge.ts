/**
 * The one spend rule every bench judges the core and each simple poller by, from what the service
 * counted (bench/service-count.ts) against the published plan figures (src/shared/plans.ts, the table
 * the service enforces), never the core's budget or counters:
 * - day: the CU charged from the UTC day's start to the end of the run is at most the plan's day quota
 *   spread evenly over that time (a run starting at 00:00 has nothing unspent to borrow; one starting at
 *   12:00 may spend the half day not yet spent, and so may every poller judged beside it);
 * - minute: no clock minute charged more than the plan's minute limit;
 * - refused: the service answered no request of it with 429 (the caller's count of them).
 */
import { PLAN_LIMITS, type PlanName } from '../src/shared/plans';
import type { ServiceCount } from './service-count';
import { DAY_MS } from '../src/shared/time';

export interface SpendVerdict {
  caller: string;
  plan: PlanName;
  cu: number;
  requests: number;
  /** Its requests by operation (list, byId, address, other), as the service counted them. */
  byOperation: Record<string, number>;
  /** CU the plan's day allows from 00:00 UTC to the run's end, at its even pace. */
  dayAllowanceCu: number;
  peakMinuteCu: number;
  minuteLimitCu: number;
  refused: number;
  /** Why it does not keep to the plan (null: it does). */
  over: string | null;
}

/** Judges one caller's spend over a run from `fromMs` to `toMs` (clock ms); `refused`: its 429 answers. */
export function judgeSpend(count: ServiceCount, caller: string, plan: PlanName, fromMs: number, toMs: number, refused = 0): SpendVerdict {
  const p = PLAN_LIMITS[plan];
  const dayStart = Math.floor(fromMs / DAY_MS) * DAY_MS;
  const dayAllowanceCu = Math.floor((p.cuPerDay * Math.min(DAY_MS, toMs - dayStart)) / DAY_MS);
  const cu = count.cu(caller);
  const peakMinuteCu = count.peakMinuteCu(caller);
  const over =
    refused > 0
      ? `refused ${refused}× (429)`
      : cu > dayAllowanceCu
        ? `${cu.toLocaleString('en-US')} CU > ${dayAllowanceCu.toLocaleString('en-US')} the day allows by then`
        : peakMinuteCu > p.cuPerMinute
          ? `${peakMinuteCu} CU in a minute > ${p.cuPerMinute}`
          : null;
  return {
    caller,
    plan,
    cu,
    requests: count.requests(caller),
    byOperation: count.operations(caller),
    dayAllowanceCu,
    peakMinuteCu,
    minuteLimitCu: p.cuPerMinute,
    refused,
    over,
  };
}
