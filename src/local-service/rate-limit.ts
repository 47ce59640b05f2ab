/**
 * Per-caller limits in compute units (CU): a sliding minute (an exact log of weighted request times)
 * and the UTC day, on the injected clock. Each answer carries the IETF draft RateLimit header values
 * the public API sends, in CU.
 */
import type { Clock } from '../shared/clock';
import type { CuLimits } from './compute-units';
import { DAY_MS, MINUTE_MS } from '../shared/time';

interface RateDecision {
  allowed: boolean;
  /** Which limit the headers describe: the minute's, or the day's when that is what refused. */
  window: 'minute' | 'day';
  limit: number;
  remaining: number;
  /** Seconds until the window frees enough (the minute) or the next 00:00 UTC (the day). */
  resetSeconds: number;
  windowSeconds: number;
}

/** Weighted request times of one caller, oldest first; `head` skips expired entries without shifting. */
interface Log {
  times: number[];
  cu: number[];
  head: number;
  /** CU in the log from `head` on. */
  sum: number;
  day: number;
  dayCu: number;
}

export class SlidingWindowLimiter {
  private readonly logs = new Map<string, Log>();
  private lastSweep = 0;

  constructor(
    private readonly clock: Clock,
    private readonly windowMs = MINUTE_MS,
  ) {}

  /** Counts a request of `cost` CU for `caller` if both limits allow it; otherwise refuses it (not counted). */
  take(caller: string, limits: CuLimits, cost: number): RateDecision {
    const now = this.clock.now();
    this.sweep(now);
    const day = Math.floor(now / DAY_MS);
    let log = this.logs.get(caller);
    if (!log) {
      log = { times: [], cu: [], head: 0, sum: 0, day, dayCu: 0 };
      this.logs.set(caller, log);
    }
    if (log.day !== day) {
      log.day = day;
      log.dayCu = 0;
    }
    const cutoff = now - this.windowMs;
    while (log.head < log.times.length && log.times[log.head]! <= cutoff) log.sum -= log.cu[log.head++]!;
    if (log.head > 1024 && log.head * 2 > log.times.length) {
      log.times = log.times.slice(log.head);
      log.cu = log.cu.slice(log.head);
      log.head = 0;
    }
    const minuteOk = log.sum + cost <= limits.cuPerMinute;
    const dayOk = limits.cuPerDay === null || log.dayCu + cost <= limits.cuPerDay;
    const allowed = minuteOk && dayOk;
    if (allowed) {
      log.times.push(now);
      log.cu.push(cost);
      log.sum += cost;
      log.dayCu += cost;
    }
    if (!dayOk) {
      return {
        allowed,
        window: 'day',
        limit: limits.cuPerDay!,
        remaining: Math.max(0, limits.cuPerDay! - log.dayCu),
        resetSeconds: Math.max(1, Math.ceil(((day + 1) * DAY_MS - now) / 1000)),
        windowSeconds: DAY_MS / 1000,
      };
    }
    return {
      allowed,
      window: 'minute',
      limit: limits.cuPerMinute,
      remaining: Math.max(0, limits.cuPerMinute - log.sum),
      resetSeconds: this.freesIn(log, allowed ? 0 : log.sum + cost - limits.cuPerMinute, now),
      windowSeconds: Math.round(this.windowMs / 1000),
    };
  }

  /** Seconds until `need` CU leave the window (need 0: until the oldest counted request does). */
  private freesIn(log: Log, need: number, now: number): number {
    let freed = 0;
    for (let i = log.head; i < log.times.length; i++) {
      freed += log.cu[i]!;
      if (freed >= need) return Math.max(1, Math.ceil((log.times[i]! + this.windowMs - now) / 1000));
    }
    return log.head < log.times.length ? Math.round(this.windowMs / 1000) : 0;
  }

  /** Forgets callers idle for a whole window with nothing spent today, so the map does not grow forever. */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    const today = Math.floor(now / DAY_MS);
    for (const [caller, log] of this.logs) {
      const last = log.times[log.times.length - 1];
      const idle = last === undefined || last <= now - this.windowMs;
      if (idle && (log.day !== today || log.dayCu === 0)) this.logs.delete(caller);
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
