/**
 * The public Data API's compute-unit (CU) figures as this service enforces them: the plans' limits per
 * minute and per day and the operations' weights are the published table, src/shared/plans.ts (read
 * here, never restated); this file maps them onto the service's operations and callers.
 */
import { OPERATION_CU, PLAN_LIMITS, WEIGHT_CLASS_CU, type PlanName } from '../shared/plans';
import type { Operation } from './api-paths';

/** Per minute / per day, in CU (the page's "Rate Limit Tiers"). */
export const PUBLIC_PLANS = PLAN_LIMITS;
export type PublicPlan = PlanName;

/**
 * CU per call. List operations are Medium; the page has no row for the ICM/teleporter operations,
 * so the single-message one is taken as Medium too, as is a path that matches no operation.
 */
export const OPERATION_WEIGHT: Record<Operation | 'other', number> = {
  list: OPERATION_CU.list,
  address: OPERATION_CU.addressList,
  message: OPERATION_CU.byId,
  other: WEIGHT_CLASS_CU.medium,
};

/** A caller's limits in CU; a null day means no daily limit. */
export interface CuLimits {
  cuPerMinute: number;
  cuPerDay: number | null;
}

/** What the realistic profile enforces: a key is on the Free plan, a caller without one is unauthenticated. */
export const REALISTIC_CU_LIMITS = { keyed: { ...PUBLIC_PLANS.free }, anonymous: { ...PUBLIC_PLANS.unauthenticated } };

/** A limit of requests a minute, as CU at the list operations' weight, with no daily limit. */
export const requestsAsCu = (perMinute: number): CuLimits => ({ cuPerMinute: perMinute * OPERATION_CU.list, cuPerDay: null });
