/**
 * How `npm run bench:relayers` judges the core's requests against its plan's budget: the plan the app
 * resolves from its own setting (the default `auto`, keyless unless BENCH_PLAN=free), with the figures
 * of src/core/data-api/budget.ts (its per-minute cap and the pace that makes the day's quota last).
 * The bench sets no budget of its own; the service's public CU limits are on and every 429 is counted.
 */
import { randomBytes } from 'node:crypto';
import { RequestBudget } from '../src/core/data-api/budget';
import type { Clock } from '../src/shared/clock';
import { DEFAULT_SETTINGS } from '../src/shared/contract';
import { REQUEST_CU, resolvePlan, type ResolvedPlan } from '../src/shared/plans';

export interface BenchPlan {
  /** The key the core sends (null: keyless). */
  apiKey: string | null;
  /** What the service needs to know the key (its realistic profile then limits it to the Free plan). */
  service: { apiKeys?: string[] };
  resolved: ResolvedPlan;
}

export function benchPlan(): BenchPlan {
  const name = process.env.BENCH_PLAN ?? 'unauthenticated';
  if (name !== 'unauthenticated' && name !== 'free') throw new Error(`BENCH_PLAN must be unauthenticated or free, not "${name}".`);
  const apiKey = name === 'free' ? `bench-${randomBytes(12).toString('hex')}` : null;
  return { apiKey, service: apiKey ? { apiKeys: [apiKey] } : {}, resolved: resolvePlan(DEFAULT_SETTINGS.plan, apiKey !== null) };
}

const LINE = /^\S+ \S+ (\d{3}) /;

/** Every request the service answered (the core is its only caller), stamped with the bench's clock. */
export class RequestLog {
  readonly times: number[] = [];
  rateLimited = 0;

  constructor(private readonly clock: Clock) {}

  readonly onLine = (line: string): void => {
    const m = LINE.exec(line);
    if (!m) return;
    this.times.push(this.clock.now());
    if (m[1] === '429') this.rateLimited++;
  };

  /** Most requests in any sliding minute. */
  busiestMinute(): number {
    let most = 0;
    for (let lo = 0, hi = 0; hi < this.times.length; hi++) {
      while (this.times[lo]! <= this.times[hi]! - 60_000) lo++;
      most = Math.max(most, hi - lo + 1);
    }
    return most;
  }
}

/** The core's requests from `fromMs` to `toMs` against its plan's budget (budget.ts's figures). */
export function judgeBudget(log: RequestLog, plan: ResolvedPlan, clock: Clock, fromMs: number, toMs: number) {
  const budget = new RequestBudget(clock, plan, { planName: plan.name });
  const minutes = (toMs - fromMs) / 60_000;
  const requests = log.times.filter((t) => t >= fromMs && t <= toMs).length;
  const sustained = budget.sustainedCuPerMinute() / REQUEST_CU;
  // The budget's pace line: one minute's burst, then the day's quota spread over its minutes.
  const paceLine = budget.minuteCapCu() / REQUEST_CU + sustained * minutes;
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    figures: {
      plan: `${plan.name} (${plan.cuPerMinute.toLocaleString('en-US')} CU a minute, ${plan.cuPerDay.toLocaleString('en-US')} a day; app setting ${JSON.stringify(DEFAULT_SETTINGS.plan)})`,
      requests,
      cu: requests * REQUEST_CU,
      minutes: round(minutes),
      perMinute: round(requests / minutes),
      busiestMinute: log.busiestMinute(),
      budget: { burstPerMinute: budget.burstPerMinute(), sustainedPerMinute: round(sustained), paceLineRequests: Math.floor(paceLine) },
      rateLimitedAnswers: log.rateLimited,
    },
    targets: {
      busiestMinute: [log.busiestMinute(), budget.burstPerMinute()] as [number, number],
      requestsOverPaceLine: [Math.round((requests / paceLine) * 1000) / 1000, 1] as [number, number],
      rateLimitedAnswers: [log.rateLimited, 0] as [number, number],
    },
  };
}
