import { HOUR_MS } from '../../shared/time';

/** The figures' time windows, each ending now: a delivery counts when now - span < deliveredAt <= now. */
export const WINDOW_MS = 24 * HOUR_MS;
export const BUCKET_MS = HOUR_MS;

export const inWindow = (now: number, span: number, at: number): boolean => at > now - span && at <= now;
