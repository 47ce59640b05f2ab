/**
 * Per-caller rate limits in a sliding window (an exact log of request times), on the injected clock.
 * Each answer carries the IETF draft RateLimit header values.
 */
import type { Clock } from '../shared/clock';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window frees a slot (the oldest counted request leaves it). */
  resetSeconds: number;
  windowSeconds: number;
}

/** Request times of one caller, oldest first; `head` skips expired entries without shifting. */
interface Log {
  times: number[];
  head: number;
}

export class SlidingWindowLimiter {
  private readonly logs = new Map<string, Log>();
  private lastSweep = 0;

  constructor(
    private readonly clock: Clock,
    private readonly windowMs = 60_000,
  ) {}

  /** Counts one request of `caller` if it is within `limit`; otherwise refuses it (not counted). */
  take(caller: string, limit: number): RateDecision {
    const now = this.clock.now();
    this.sweep(now);
    let log = this.logs.get(caller);
    if (!log) {
      log = { times: [], head: 0 };
      this.logs.set(caller, log);
    }
    const cutoff = now - this.windowMs;
    while (log.head < log.times.length && log.times[log.head]! <= cutoff) log.head++;
    if (log.head > 1024 && log.head * 2 > log.times.length) {
      log.times = log.times.slice(log.head);
      log.head = 0;
    }
    const used = log.times.length - log.head;
    const allowed = used < limit;
    if (allowed) log.times.push(now);
    const oldest = log.times[log.head];
    const resetSeconds = oldest === undefined ? 0 : Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - (log.times.length - log.head)),
      resetSeconds,
      windowSeconds: Math.round(this.windowMs / 1000),
    };
  }

  /** Forgets callers idle for a whole window, so the map does not grow forever. */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [caller, log] of this.logs) {
      const last = log.times[log.times.length - 1];
      if (last === undefined || last <= now - this.windowMs) this.logs.delete(caller);
    }
  }
}

export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  return {
    'ratelimit-policy': `${d.limit};w=${d.windowSeconds}`,
    'ratelimit-limit': String(d.limit),
    'ratelimit-remaining': String(d.remaining),
    'ratelimit-reset': String(d.resetSeconds),
  };
}
