import { PLAN_LIMITS, resolvePlan, type Plan } from '../shared/plans';

const fmt = (n: number) => n.toLocaleString('en-US');
const limits = (l: { cuPerMinute: number; cuPerDay: number }) => `${fmt(l.cuPerMinute)} CU a minute, ${fmt(l.cuPerDay)} a day`;

/**
 * `--check`'s plan line: the limits the budget will keep within, with and without a key (the file
 * says where the key comes from, not whether it is there).
 */
export function describePlan(plan: Plan | undefined, keyConfigured: boolean): string {
  const p = plan ?? 'auto';
  if (typeof p === 'object') return `plan     custom: ${limits(p)} (the day resets at 00:00 UTC)`;
  const withKey = resolvePlan(p, true);
  const keyless = `without a key unauthenticated, ${limits(PLAN_LIMITS.unauthenticated)}`;
  const keyed = `with a key ${withKey.name}, ${limits(withKey)}`;
  return `plan     ${p}: ${keyConfigured ? `${keyed}; ${keyless}` : `${keyless} (no apiKey in the file; ${keyed})`} (the day resets at 00:00 UTC)`;
}
