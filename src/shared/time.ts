/**
 * The time units, in milliseconds: the one place a minute, an hour or a day is spelled as a number
 * (eslint.config.mjs flags such literals anywhere else in src/).
 */
export const SECOND_MS = 1_000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
/** Minutes in a day: a plan's day quota spread evenly over its minutes. */
export const DAY_MINUTES = DAY_MS / MINUTE_MS;
