/** The knobs of `npm run bench:headless` (environment variables), defaulting to the app's own settings. */
import { DEFAULT_SETTINGS } from '../src/shared/contract';
import { PLAN_NAMES, type PlanName } from '../src/shared/plans';
import { runKnobs, type RunKnobs } from './world-knobs';

export interface HeadlessKnobs extends RunKnobs {
  /** The plan the watcher's budget and the service's limits are set to (default: the keyless one). */
  plan: PlanName;
  /** The per-address poller: run when affordable (`auto`), always (`on`) or never (`off`). */
  perAddress: 'auto' | 'on' | 'off';
}

function oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new Error(`${name} must be one of ${allowed.join(', ')}, not "${raw}".`);
  return raw as T;
}

export function headlessKnobs(): HeadlessKnobs {
  return {
    ...runKnobs(
      {
        intervalS: DEFAULT_SETTINGS.pollIntervalSeconds,
        addresses: 10_000,
        stuckMinutes: DEFAULT_SETTINGS.stuckThresholdMinutes,
      },
      'BENCH_BASELINE_DEPTH_MIN',
    ),
    plan: oneOf('BENCH_PLAN', PLAN_NAMES, 'unauthenticated'),
    perAddress: oneOf('BENCH_PER_ADDRESS', ['auto', 'on', 'off'] as const, 'auto'),
  };
}
