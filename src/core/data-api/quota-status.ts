/** The quota line: today's spend against the plan's day, and where the current pace leads (pure). */
import type { QuotaStatus } from '../../shared/contract';
import { QUOTA_WARN_SHARE, REQUEST_CU, type PlanLimits } from '../../shared/plans';
import { DAY_MS, MINUTE_MS } from '../../shared/time';

/** 00:00 UTC of the day `t` falls in: the public API's day resets then. */
export const dayStart = (t: number): number => t - (((t % DAY_MS) + DAY_MS) % DAY_MS);
export const dayKey = (t: number): string => new Date(dayStart(t)).toISOString().slice(0, 10);

interface QuotaInput {
  now: number;
  plan: string;
  limits: PlanLimits;
  /** The most the budget lets the day spend (the quota less the margin). */
  dayCapCu: number;
  spentCu: number;
  requests: number;
  cuLastMinute: number;
  /** CU a minute over the last few minutes. */
  paceCuPerMinute: number;
}

export function quotaStatus(q: QuotaInput): QuotaStatus {
  const resetsAt = dayStart(q.now) + DAY_MS;
  const minutesLeft = (resetsAt - q.now) / MINUTE_MS;
  const projected = q.spentCu + q.paceCuPerMinute * minutesLeft;
  // At this pace, when would the day's quota be gone (before the reset, or never today)?
  let runsOutAt: number | null = null;
  if (q.paceCuPerMinute > 0 && projected >= q.limits.cuPerDay) {
    runsOutAt = Math.max(q.now, Math.round(q.now + ((q.limits.cuPerDay - q.spentCu) / q.paceCuPerMinute) * MINUTE_MS));
  }
  const level: QuotaStatus['level'] = q.spentCu + REQUEST_CU > q.dayCapCu ? 'exhausted' : projected >= QUOTA_WARN_SHARE * q.limits.cuPerDay ? 'warning' : 'ok';
  return {
    plan: q.plan,
    cuPerMinute: q.limits.cuPerMinute,
    cuPerDay: q.limits.cuPerDay,
    spentCuToday: q.spentCu,
    requestsToday: q.requests,
    cuLastMinute: q.cuLastMinute,
    paceCuPerMinute: Math.round(q.paceCuPerMinute),
    projectedCuToday: Math.round(projected),
    runsOutAt,
    resetsAt,
    level,
  };
}
