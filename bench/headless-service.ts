/**
 * The local service of `npm run bench:headless`: the bench's world with the public CU limits on for
 * the watcher. The watcher sends a key (only so the service can tell it from the fair pollers, which
 * share the service and 127.0.0.1); the key's limits are the plan's public figures
 * (src/local-data-api/compute-units.ts, the service's own copy), so a keyless run is held to the
 * unauthenticated plan's. Callers without a key (the fair pollers) are not limited.
 */
import { randomBytes } from 'node:crypto';
import { OPERATION_WEIGHT, PUBLIC_PLANS, startTeleporterService, type RunningService } from '../src/local-data-api';
import type { Clock } from '../src/shared/clock';
import type { HeadlessKnobs } from './headless-knobs';

export interface JudgedService {
  service: RunningService;
  apiKey: string;
  /** Requests the plan's minute limit allows (its CU a minute at the list operations' weight). */
  planRequestsPerMinute: number;
  planLabel: string;
  limitsLabel: string;
  /** Requests with the watcher's key, and how many of them the service refused with 429. */
  counts: { ours: number; oursRateLimited: number };
}

const LINE = /^\S+ \S+ (\d{3}) \S+ (key|anonymous)$/;

export async function startJudgedService(clock: Clock, k: HeadlessKnobs): Promise<JudgedService> {
  const apiKey = `bench-${randomBytes(12).toString('hex')}`;
  const counts = { ours: 0, oursRateLimited: 0 };
  const plan = PUBLIC_PLANS[k.plan];
  const service = await startTeleporterService({
    clock,
    seed: 42,
    rate: k.rate,
    addressCount: k.addresses,
    preload: k.preload,
    ...(k.realistic ? { realistic: true } : {}),
    apiKeys: [apiKey],
    computeUnits: { keyed: k.plan, anonymous: { cuPerMinute: 1_000_000_000_000, cuPerDay: null } },
    logRequests: true,
    log: (line) => {
      const m = LINE.exec(line);
      if (m?.[2] !== 'key') return;
      counts.ours++;
      if (m[1] === '429') counts.oursRateLimited++;
    },
  });
  return {
    service,
    apiKey,
    planRequestsPerMinute: Math.floor(plan.cuPerMinute / OPERATION_WEIGHT.list),
    planLabel: `${k.plan} (${plan.cuPerMinute.toLocaleString('en-US')} CU a minute, ${plan.cuPerDay.toLocaleString('en-US')} a day)`,
    limitsLabel: `the watcher's: the ${k.plan} plan's public CU limits; the fair pollers': none`,
    counts,
  };
}
