/**
 * The public Data API's plans and operation weights, in compute units (CU), as its rate-limit page
 * (developers.avacloud.io/data-api/rate-limits) publishes them: the one copy. The budget spends within
 * them, the local service enforces them (src/local-service/compute-units.ts), the benches judge by
 * them, and docs/data-api.md tables them (test/shared/plans-docs.test.ts holds the page to these).
 */
import { z } from 'zod';
import { DAY_MINUTES } from './time';

export const PLAN_NAMES = ['unauthenticated', 'free', 'base', 'growth', 'pro'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export interface PlanLimits {
  cuPerMinute: number;
  cuPerDay: number;
}

export const PLAN_LIMITS: Record<PlanName, PlanLimits> = {
  unauthenticated: { cuPerMinute: 6_000, cuPerDay: 1_200_000 },
  free: { cuPerMinute: 8_000, cuPerDay: 2_000_000 },
  base: { cuPerMinute: 10_000, cuPerDay: 3_750_000 },
  growth: { cuPerMinute: 14_000, cuPerDay: 11_200_000 },
  pro: { cuPerMinute: 20_000, cuPerDay: 25_000_000 },
};

export const PLAN_LABELS: Record<PlanName | 'auto' | 'custom', string> = {
  auto: 'Automatic (no key: unauthenticated; with a key: Free)',
  unauthenticated: 'Unauthenticated (no key)',
  free: 'Free',
  base: 'Base',
  growth: 'Growth',
  pro: 'Pro',
  custom: 'Custom figures',
};

/** The page's weight classes, CU per call. */
export const WEIGHT_CLASS_CU = { free: 1, small: 10, medium: 20, large: 50, xl: 100, xxl: 200 } as const;

/**
 * CU per call of the operations the app uses. The page lists list operations as Medium (20 CU); it
 * gives no row for the ICM/teleporter operations, so each is priced Medium, the single-message one too.
 * The native balance (`balances:getNative`, a relayer's gas) is priced Medium as the page's balance reads.
 */
export const OPERATION_CU = {
  list: WEIGHT_CLASS_CU.medium,
  addressList: WEIGHT_CLASS_CU.medium,
  byId: WEIGHT_CLASS_CU.medium,
  nativeBalance: WEIGHT_CLASS_CU.medium,
} as const;
export type Operation = keyof typeof OPERATION_CU;
/** The weight plans are turned into requests with (every operation the app uses weighs the same). */
export const REQUEST_CU = OPERATION_CU.list;

/** Share of each limit held back, so clock skew and other users of the key never tip us over. */
export const QUOTA_SAFETY_MARGIN = 0.05;
/** The quota line warns once the day's projected spend, at the current pace, reaches this share of the quota. */
export const QUOTA_WARN_SHARE = 0.8;

const cu = (what: string, min: number, max: number) =>
  z
    .number({ error: `${what}: enter a number.` })
    // A refinement, not .int(): zod's int check fails like a wrong type, and the union would then hide it.
    .refine(Number.isInteger, `${what} must be a whole number.`)
    .min(min, `${what} must be at least ${min.toLocaleString('en-US')} CU.`)
    .max(max, `${what} must be at most ${max.toLocaleString('en-US')} CU.`);

const CustomPlanSchema = z
  .object({
    cuPerMinute: cu('Plan CU per minute', REQUEST_CU, 10_000_000),
    cuPerDay: cu('Plan CU per day', REQUEST_CU, 10_000_000_000),
  })
  .strict()
  .refine((p) => p.cuPerDay >= p.cuPerMinute, { message: 'Plan CU per day must be at least its CU per minute.', path: ['cuPerDay'] });

/** `auto`: unauthenticated without a key, Free with one; a name; or custom figures. */
export const PlanSchema = z.union([z.enum(['auto', ...PLAN_NAMES]), CustomPlanSchema], {
  error: `plan must be one of auto, ${PLAN_NAMES.join(', ')}, or { cuPerMinute, cuPerDay }.`,
});
export type Plan = z.output<typeof PlanSchema>;

export interface ResolvedPlan extends PlanLimits {
  /** The plan's name as shown (custom figures: "custom"). */
  name: PlanName | 'custom';
}

/**
 * The limits that apply: a plan names what the key is on, so without a key the unauthenticated
 * limits apply whatever the plan says; custom figures describe the server and apply either way.
 */
export function resolvePlan(plan: Plan, hasKey: boolean): ResolvedPlan {
  if (typeof plan === 'object') return { name: 'custom', ...plan };
  const name: PlanName = !hasKey ? 'unauthenticated' : plan === 'auto' ? 'free' : plan;
  return { name, ...PLAN_LIMITS[name] };
}

/**
 * What an old "request budget per minute" setting becomes: a frugal one (less than the keyless
 * day's pace) stays as custom figures at 20 CU a request; larger ones, which emptied the day's quota
 * in hours, give way to the automatic plan.
 */
export function planFromRequestBudget(perMinute: unknown): Plan {
  if (typeof perMinute !== 'number' || !Number.isInteger(perMinute) || perMinute < 1) return 'auto';
  const perDay = perMinute * REQUEST_CU * DAY_MINUTES;
  return perDay < PLAN_LIMITS.unauthenticated.cuPerDay ? { cuPerMinute: perMinute * REQUEST_CU, cuPerDay: perDay } : 'auto';
}

/** Custom figures whose budget (margin kept) allows `perMinute` requests every minute of the day: for tools and benches. */
export function requestRatePlan(perMinute: number): PlanLimits {
  const keep = 1 - QUOTA_SAFETY_MARGIN;
  return { cuPerMinute: Math.ceil((perMinute * REQUEST_CU) / keep), cuPerDay: Math.ceil((perMinute * REQUEST_CU * DAY_MINUTES) / keep) };
}
