/**
 * Whether the plan keeps up: on a list busier than the budget (echo mode, echoes.ts) the poller reads
 * each record twice instead of at every overlap, so records up to MAX_LATENESS_S late and changes the
 * re-checks did not reach show up to that late. The poll status then says what the reads a plan keeps
 * up with would cost, and the smallest published plan whose day pace pays them (null: none does).
 */
import type { KeepUp } from '../../shared/contract';
import { PLAN_LIMITS, PLAN_NAMES, QUOTA_SAFETY_MARGIN, REQUEST_CU } from '../../shared/plans';
import { lateReadsPerCycle } from './echoes';
import { DAY_MINUTES, MINUTE_MS } from '../../shared/time';

/** Requests a minute a plan's day sustains, less the margin the budget holds back. */
const dayPacePerMinute = (cuPerDay: number) => (cuPerDay * (1 - QUOTA_SAFETY_MARGIN)) / DAY_MINUTES / REQUEST_CU;

export function keepUp(ratePerSec: number, intervalMs: number, fullOverlapSec: number): KeepUp {
  const needPerMinute = Math.ceil((lateReadsPerCycle(ratePerSec, intervalMs, fullOverlapSec) * MINUTE_MS) / intervalMs);
  const plan = PLAN_NAMES.find((p) => dayPacePerMinute(PLAN_LIMITS[p].cuPerDay) >= needPerMinute) ?? null;
  return { needPerMinute, planThatWould: plan };
}
