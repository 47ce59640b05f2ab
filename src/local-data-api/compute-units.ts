/**
 * The public Data API's compute-unit (CU) figures, copied from its rate-limit page
 * (developers.avacloud.io/data-api/rate-limits): limits per plan per minute and per day, and the
 * weight of each operation this service serves. The service's own copy: never the app's constants.
 */
import type { Operation } from './api-paths';

/** Per minute / per day, in CU (the page's "Rate Limit Tiers"). */
export const PUBLIC_PLANS = {
  unauthenticated: { cuPerMinute: 6_000, cuPerDay: 1_200_000 },
  free: { cuPerMinute: 8_000, cuPerDay: 2_000_000 },
  base: { cuPerMinute: 10_000, cuPerDay: 3_750_000 },
  growth: { cuPerMinute: 14_000, cuPerDay: 11_200_000 },
  pro: { cuPerMinute: 20_000, cuPerDay: 25_000_000 },
} as const;
export type PublicPlan = keyof typeof PUBLIC_PLANS;

/** The page's weight classes. */
const WEIGHT = { free: 1, small: 10, medium: 20, large: 50, xl: 100, xxl: 200 } as const;

/**
 * CU per call. List operations are Medium; the page has no row for the ICM/teleporter operations,
 * so the single-message one is taken as Medium too, as is a path that matches no operation.
 */
export const OPERATION_WEIGHT: Record<Operation | 'other', number> = {
  list: WEIGHT.medium,
  address: WEIGHT.medium,
  message: WEIGHT.medium,
  other: WEIGHT.medium,
};

/** A caller's limits in CU; a null day means no daily limit. */
export interface CuLimits {
  cuPerMinute: number;
  cuPerDay: number | null;
}

/** What the realistic profile enforces: a key is on the Free plan, a caller without one is unauthenticated. */
export const REALISTIC_CU_LIMITS = { keyed: { ...PUBLIC_PLANS.free }, anonymous: { ...PUBLIC_PLANS.unauthenticated } };

/** A limit of requests a minute, as CU at the list operations' weight, with no daily limit. */
export const requestsAsCu = (perMinute: number): CuLimits => ({ cuPerMinute: perMinute * WEIGHT.medium, cuPerDay: null });
