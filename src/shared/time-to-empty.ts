/**
 * A wallet's time to empty, rounded to what its data supports and said one way everywhere (the
 * Relayers view, the fuel alert's text, the `relayer_hours_to_empty` metric). The estimate is the
 * balance over the last hour's burn, so its minutes are not worth more than a few per cent: the
 * further away, the coarser the step. Beyond a year it says only that.
 */

const MINUTE_H = 1 / 60;
/** An estimate beyond this is "more than a year" (its figure capped here). */
export const TIME_TO_EMPTY_CAP_HOURS = 365 * 24;

/** The step an estimate of `hours` is rounded to, in hours. */
export function timeToEmptyStep(hours: number): number {
  if (hours < 10 * MINUTE_H) return MINUTE_H;
  if (hours < 1) return 5 * MINUTE_H;
  if (hours < 10) return 10 * MINUTE_H;
  if (hours < 48) return 1;
  return 24;
}

/** The estimate rounded to its step (at least a minute), capped at a year; null stays null (no burn, no estimate). */
export function roundHoursToEmpty(hours: number | null): number | null {
  if (hours === null || !Number.isFinite(hours)) return null;
  if (hours >= TIME_TO_EMPTY_CAP_HOURS) return TIME_TO_EMPTY_CAP_HOURS;
  const step = timeToEmptyStep(hours);
  const rounded = Math.round(hours / step) * step;
  return Math.max(MINUTE_H, Math.round(rounded * 3600) / 3600);
}

/** "about 40 min", "about 3 h 20 min", "about 4 d", "more than a year"; null: "no burn in the last hour". */
export function timeToEmptyWords(hours: number | null): string {
  const h = roundHoursToEmpty(hours);
  if (h === null) return 'no burn in the last hour';
  if (h >= TIME_TO_EMPTY_CAP_HOURS) return 'more than a year';
  const minutes = Math.round(h * 60);
  if (minutes < 60) return `about ${minutes} min`;
  if (h < 48) {
    const whole = Math.floor(minutes / 60);
    return minutes % 60 ? `about ${whole} h ${minutes % 60} min` : `about ${whole} h`;
  }
  return `about ${Math.round(h / 24)} d`;
}
