/** The knobs the core and headless benchmarks share (environment variables, with the defaults of a full run). */
import { envNumber } from './targets';

export function worldKnobs(defaultAddresses: number) {
  return {
    intervalS: envNumber('BENCH_INTERVAL_S', 10),
    minutes: envNumber('BENCH_MINUTES', 10),
    settleMinutes: envNumber('BENCH_SETTLE_MINUTES', 5),
    addresses: envNumber('BENCH_ADDRESSES', defaultAddresses),
    rate: envNumber('BENCH_RATE', 20),
    preload: envNumber('BENCH_PRELOAD', 20_000),
    budget: envNumber('BENCH_BUDGET', 3000),
    /** Test hook: drop this many of the reports before judging them (a bench must then fail). */
    drop: envNumber('BENCH_INJECT_MISSES', 0),
    realistic: (process.env.BENCH_PROFILE ?? 'realistic') === 'realistic',
  };
}
