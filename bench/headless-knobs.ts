/** The knobs of `npm run bench:headless` (environment variables), defaulting to the app's own settings. */
import { DEFAULT_SETTINGS } from '../src/shared/contract';
import { PLAN_NAMES, type PlanName } from '../src/shared/plans';
import { envNumber } from './targets';

export interface HeadlessKnobs {
  intervalS: number;
  minutes: number;
  settleMinutes: number;
  addresses: number;
  rate: number;
  preload: number;
  /** The plan the watcher's budget and the service's limits are set to (default: the keyless one). */
  plan: PlanName;
  stuckMinutes: number;
  /** How far back the fair pollers read each interval (covers delivery, receipts and indexing lag). */
  depthMin: number;
  /** The per-address poller: run when affordable (`auto`), always (`on`) or never (`off`). */
  perAddress: 'auto' | 'on' | 'off';
  /** Test hook: drop this many alerts before judging them (the bench must then fail). */
  drop: number;
  realistic: boolean;
}

function oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new Error(`${name} must be one of ${allowed.join(', ')}, not "${raw}".`);
  return raw as T;
}

export function headlessKnobs(): HeadlessKnobs {
  return {
    intervalS: envNumber('BENCH_INTERVAL_S', DEFAULT_SETTINGS.pollIntervalSeconds),
    minutes: envNumber('BENCH_MINUTES', 10),
    settleMinutes: envNumber('BENCH_SETTLE_MINUTES', 5),
    addresses: envNumber('BENCH_ADDRESSES', 10_000),
    rate: envNumber('BENCH_RATE', 2),
    preload: envNumber('BENCH_PRELOAD', 20_000),
    plan: oneOf('BENCH_PLAN', PLAN_NAMES, 'unauthenticated'),
    stuckMinutes: envNumber('BENCH_STUCK_MINUTES', DEFAULT_SETTINGS.stuckThresholdMinutes),
    depthMin: envNumber('BENCH_BASELINE_DEPTH_MIN', 15),
    perAddress: oneOf('BENCH_PER_ADDRESS', ['auto', 'on', 'off'] as const, 'auto'),
    drop: envNumber('BENCH_INJECT_MISSES', 0),
    realistic: (process.env.BENCH_PROFILE ?? 'realistic') === 'realistic',
  };
}
