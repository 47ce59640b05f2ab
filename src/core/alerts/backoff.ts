import { ALERT_RETRY_BASE_MS, ALERT_RETRY_MAX_MS } from '../../shared/policy';

/**
 * How long an alert channel waits after its `failures`-th failed attempt in a row: "full jitter" over
 * an exponential ceiling, base × 2^failures capped at `max`, floored at the base. The jitter keeps
 * replicas (and channels) that failed together from retrying in step; the floor keeps a dead receiver
 * from being asked more than once per base, whatever the draw.
 */
export function retryDelayMs(failures: number, random: () => number = Math.random, base = ALERT_RETRY_BASE_MS, max = ALERT_RETRY_MAX_MS): number {
  const ceiling = Math.min(max, base * 2 ** Math.min(Math.max(failures, 1), 30));
  return Math.round(base + random() * Math.max(0, ceiling - base));
}
