/**
 * Whether a plan keeps up with a world in real time, decided from the world's rate and the published
 * plan (never from what the core says of itself, so a core that calls itself behind cannot dodge the
 * latency targets): the reads the late-record bounds need each cycle (docs/poller.md "Late
 * records": the news, half a full overlap, a share of the trailing sweep; the list's records 100 a page)
 * fit the plan's day quota spread evenly over the day's cycles. At a 30 s interval that is about 5.6
 * pages a cycle per message/s, against 20.8 requests a cycle without a key and 34.7 on Free: 0.2 and
 * 2 msg/s keep up on both plans, 20 msg/s on neither (docs/limits.md: echo mode from about 4 msg/s).
 */
import { PLAN_LIMITS, REQUEST_CU, type PlanName } from '../src/shared/plans';
import { GUARANTEED_LATENESS_S, MAX_LATENESS_S, TRAIL_PERIOD_MS } from '../src/shared/policy';
import { DAY_MS } from '../src/shared/time';

/** The Data API's largest page of the list. */
const PAGE = 100;

export interface KeepsUp {
  keepsUp: boolean;
  /** Pages a cycle the late-record reads need at this rate. */
  pagesPerCycle: number;
  /** List requests a cycle the plan's day quota allows at an even pace. */
  paceRequestsPerCycle: number;
}

export function keepsUp(rate: number, plan: PlanName, intervalMs: number): KeepsUp {
  const s = intervalMs / 1000;
  const news = rate * s;
  // Every other cycle reads a full overlap (10 min and 2 intervals) below the cursor.
  const halfOverlap = (rate * (GUARANTEED_LATENESS_S + 2 * s)) / 2;
  // The trailing sweep reads 30 min of the list over the cycles of its period.
  const sweepShare = (rate * MAX_LATENESS_S) / Math.max(1, Math.floor(TRAIL_PERIOD_MS / intervalMs) - 1);
  const pagesPerCycle = (news + halfOverlap + sweepShare) / PAGE;
  const paceRequestsPerCycle = PLAN_LIMITS[plan].cuPerDay / REQUEST_CU / (DAY_MS / intervalMs);
  const round = (n: number) => Math.round(n * 10) / 10;
  return { keepsUp: pagesPerCycle <= paceRequestsPerCycle, pagesPerCycle: round(pagesPerCycle), paceRequestsPerCycle: round(paceRequestsPerCycle) };
}
