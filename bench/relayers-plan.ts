/**
 * The plan `npm run bench:relayers` runs the core on, and judges its spend by: keyless by default (the
 * app's plan setting `auto` without a key, the published unauthenticated plan), or BENCH_PLAN=free, a key
 * (then `auto` means Free). The service's realistic profile enforces the same published plan per caller;
 * the spend is judged on what the service counted (bench/judge.ts), never on the core's budget.
 */
import { randomBytes } from 'node:crypto';
import type { PlanName } from '../src/shared/plans';

export interface BenchPlan {
  plan: PlanName;
  /** The key the core sends (null: keyless). */
  apiKey: string | null;
  /** The core's caller as the service counts it (bench/service-count.ts): its key, or `anonymous`. */
  caller: string;
  /** What the service needs to know the key (its realistic profile then limits it to the Free plan). */
  service: { apiKeys?: string[] };
}

export function benchPlan(): BenchPlan {
  const plan = process.env.BENCH_PLAN ?? 'unauthenticated';
  if (plan !== 'unauthenticated' && plan !== 'free') throw new Error(`BENCH_PLAN must be unauthenticated or free, not "${plan}".`);
  const apiKey = plan === 'free' ? `bench-${randomBytes(12).toString('hex')}` : null;
  return { plan, apiKey, caller: apiKey ?? 'anonymous', service: apiKey ? { apiKeys: [apiKey] } : {} };
}
