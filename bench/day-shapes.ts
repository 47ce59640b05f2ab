/**
 * The days `npm run bench:day` runs, one per rate (BENCH_DAY_RATES, default 0.2,2,20). Every day starts
 * at 00:00 UTC on the same calm history (yesterday at CALM_RATE). The calm day is 24 hours at 0.2 msg/s;
 * a busy day is its busy hours at its rate, then calm hours at 0.2 msg/s with the world still moving:
 * the traffic calms, and by the calm's end everything the busy hours did must have been found (the
 * settle bound docs/benchmarks.md states). 24 hours at 20 msg/s would be 1.7 M messages: hours of wall time here.
 */
import { envNumber } from './targets';

/** A quiet day's traffic, and what a busy day calms to (messages a second). */
export const CALM_RATE = 0.2;

export interface DayShape {
  /** Messages a second in the busy hours (CALM_RATE: a calm day). */
  rate: number;
  /** Hours at `rate` from 00:00 UTC. */
  busyHours: number;
  /** Then hours at CALM_RATE (the settle: the traffic calms); 0 for the calm day. */
  calmHours: number;
}

/** Busy and calm hours by rate: chosen so each day stays within about 10-20 min of wall time on this machine. */
const DEFAULT_SHAPES: Record<string, Omit<DayShape, 'rate'>> = {
  '0.2': { busyHours: 24, calmHours: 0 },
  '2': { busyHours: 6, calmHours: 1 },
  '20': { busyHours: 1, calmHours: 1 },
};

/**
 * The rates to run, each with its shape. BENCH_DAY_HOURS sets every day's busy hours, BENCH_DAY_CALM_HOURS
 * a busy day's calm (quick runs); another rate than the three takes the 20 msg/s day's shape.
 */
export function dayShapes(): DayShape[] {
  // BENCH_RATE, the knob before busy days, still picks one rate.
  const rates = (process.env.BENCH_DAY_RATES ?? process.env.BENCH_RATE ?? '0.2,2,20').split(',').map((r) => Number(r.trim()));
  for (const r of rates) if (!(r > 0)) throw new Error(`BENCH_DAY_RATES: each rate must be a number above 0 (got "${process.env.BENCH_DAY_RATES}").`);
  return rates.map((rate) => {
    const d = DEFAULT_SHAPES[String(rate)] ?? DEFAULT_SHAPES['20']!;
    const calm = rate === CALM_RATE;
    return {
      rate,
      busyHours: envNumber('BENCH_DAY_HOURS', d.busyHours),
      calmHours: calm ? 0 : envNumber('BENCH_DAY_CALM_HOURS', d.calmHours),
    };
  });
}

/** The rate as a target name's suffix: 0.2 → `At0_2` (BENCH_TARGET_MISSED_FREE_AT0_2 overrides it). */
export const rateSuffix = (rate: number): string => `At${String(rate).replace('.', '_')}`;
