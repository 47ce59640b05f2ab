/**
 * The local service of `npm run bench:headless`: the bench's world (bench/bench-service.ts) with every
 * caller on the plan's public CU limits (src/shared/plans.ts, the published table the service enforces):
 * the watcher with a key of its own (so the service tells it from the fair pollers, which share the
 * service and 127.0.0.1), each fair poller with its own (FAIR_POLLER_KEYS). What the service charged and
 * refused each of them is counted at the service (bench/service-count.ts), the only count judged.
 */
import { randomBytes } from 'node:crypto';
import type { SimulatedService } from '../src/local-service';
import { PLAN_LIMITS, REQUEST_CU } from '../src/shared/plans';
import type { Clock } from '../src/shared/clock';
import { startBenchService } from './bench-service';
import type { HeadlessKnobs } from './headless-knobs';
import { ServiceCount } from './service-count';

export interface JudgedService {
  service: SimulatedService;
  apiKey: string;
  count: ServiceCount;
  /** Requests the plan's minute limit allows (its CU a minute at the list operations' weight). */
  planRequestsPerMinute: number;
  planLabel: string;
  limitsLabel: string;
}

export async function startJudgedService(clock: Clock, k: HeadlessKnobs): Promise<JudgedService> {
  const apiKey = `bench-${randomBytes(12).toString('hex')}`;
  const count = new ServiceCount(clock);
  const plan = PLAN_LIMITS[k.plan];
  const service = await startBenchService(clock, {
    rate: k.rate,
    addresses: k.addresses,
    preload: k.preload,
    realistic: k.realistic,
    apiKeys: [apiKey],
    plan: k.plan,
    onCharge: count.onCharge,
    onRefused: count.onRefused,
  });
  return {
    service,
    apiKey,
    count,
    planRequestsPerMinute: Math.floor(plan.cuPerMinute / REQUEST_CU),
    planLabel: `${k.plan} (${plan.cuPerMinute.toLocaleString('en-US')} CU a minute, ${plan.cuPerDay.toLocaleString('en-US')} a day)`,
    limitsLabel: `every caller (the watcher, each fair poller with its own key): the ${k.plan} plan's public CU limits`,
  };
}
