import type { Clock } from '../../shared/clock';
import { MonitorError, type ErrorInfo } from '../../shared/errors';

const WINDOW_MS = 60_000;
/** Longest a call waits in the queue for the budget before it fails with a clear error. */
export const MAX_QUEUE_WAIT_MS = 30_000;

/**
 * Requests per minute allowed against one base URL: a sliding window of send times, narrowed by what
 * the server says in its ratelimit-* headers and by Retry-After. The poller plans within `available()`;
 * `acquire()` is the last guard before every request.
 */
export class RequestBudget {
  private sent: number[] = [];
  private blockedUntil = 0;
  private serverLimit: number | null = null;
  private serverRemaining: { remaining: number; resetAt: number } | null = null;

  constructor(
    private readonly clock: Clock,
    private limit: number,
    private readonly maxQueueWaitMs = MAX_QUEUE_WAIT_MS,
  ) {}

  setLimit(perMinute: number): void {
    this.limit = perMinute;
  }

  /** The effective limit per minute: ours, or the server's when it announces a lower one. */
  perMinute(): number {
    return this.serverLimit !== null ? Math.min(this.limit, this.serverLimit) : this.limit;
  }

  usedLastMinute(): number {
    this.trim();
    return this.sent.length;
  }

  /** Requests that may be sent now without waiting. */
  available(): number {
    const now = this.clock.now();
    if (now < this.blockedUntil) return 0;
    let n = this.perMinute() - this.usedLastMinute();
    if (this.serverRemaining && now < this.serverRemaining.resetAt) n = Math.min(n, this.serverRemaining.remaining);
    return Math.max(0, n);
  }

  /** What the server's last ratelimit-remaining said, while its window lasts (null: unknown). */
  serverRemainingNow(): number | null {
    return this.serverRemaining && this.clock.now() < this.serverRemaining.resetAt ? this.serverRemaining.remaining : null;
  }

  blockedUntilTime(): number | null {
    return this.clock.now() < this.blockedUntil ? this.blockedUntil : null;
  }

  /** After a 429: nothing goes out before `until`. */
  blockUntil(until: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, until);
  }

  /**
   * Waits until a request may go out, then counts it. A wait that would end past the queue limit
   * fails at once with a rate_limited MonitorError naming the cause (never an endless queue).
   */
  async acquire(signal?: AbortSignal): Promise<void> {
    const deadline = this.clock.now() + this.maxQueueWaitMs;
    for (;;) {
      const wait = this.waitMs();
      if (wait <= 0) break;
      if (this.clock.now() + wait > deadline) {
        const why = this.shortfall();
        throw new MonitorError({
          ...why,
          message: `The request could not go out within ${Math.round(this.maxQueueWaitMs / 1000)} s, so it was dropped. ${why.message}`,
        });
      }
      await this.clock.sleep(wait, signal);
    }
    this.sent.push(this.clock.now());
  }

  /**
   * Why no request may go out now, naming the real cause: the server's 429 (with its wait), the
   * server's announced window, or the local request budget.
   */
  shortfall(): ErrorInfo {
    const now = this.clock.now();
    const secs = (t: number) => Math.max(1, Math.ceil((t - now) / 1000));
    if (now < this.blockedUntil) {
      return {
        kind: 'rate_limited',
        retryAt: this.blockedUntil,
        message: `The server answered HTTP 429 (too many requests) and asked to wait ${secs(this.blockedUntil)} s; polling resumes then.`,
      };
    }
    const r = this.serverRemaining;
    if (r && r.remaining <= 0 && now < r.resetAt) {
      return {
        kind: 'rate_limited',
        retryAt: r.resetAt,
        message: `The server's rate limit for this window is used up (it announced 0 requests remaining); it resets in ${secs(r.resetAt)} s and polling resumes then.`,
      };
    }
    const used = this.usedLastMinute();
    const frees = this.sent.length ? (this.sent[0] as number) + WINDOW_MS : now + 1000;
    if (this.serverLimit !== null && this.serverLimit < this.limit && used >= this.serverLimit) {
      return {
        kind: 'rate_limited',
        retryAt: frees,
        message: `The server allows ${this.serverLimit} requests per minute and ${used} went out in the last minute; polling continues in ${secs(frees)} s. An API key raises the server's limit.`,
      };
    }
    if (used >= this.perMinute()) {
      return {
        kind: 'rate_limited',
        retryAt: frees,
        message: `The local request budget is used up: ${used} of ${this.perMinute()} requests in the last minute; polling continues in ${secs(frees)} s. Raise the budget in Settings or add an API key.`,
      };
    }
    return {
      kind: 'rate_limited',
      message: `This poll cycle used its share of the local request budget (${this.perMinute()} per minute, ${used} used); the next cycle continues. Raise the budget in Settings or add an API key.`,
    };
  }

  /** Reads `ratelimit-limit` / `ratelimit-remaining` / `ratelimit-reset` (or the combined `ratelimit`). */
  observeHeaders(get: (name: string) => string | undefined): void {
    let limit = num(get('ratelimit-limit'));
    let remaining = num(get('ratelimit-remaining'));
    let reset = num(get('ratelimit-reset'));
    const combined = get('ratelimit');
    if (combined) {
      limit ??= num(/limit=(\d+)/.exec(combined)?.[1]);
      remaining ??= num(/remaining=(\d+)/.exec(combined)?.[1]);
      reset ??= num(/reset=(\d+)/.exec(combined)?.[1]);
    }
    const policyWindow = num(/;w=(\d+)/.exec(get('ratelimit-policy') ?? '')?.[1]);
    if (limit !== undefined) this.serverLimit = policyWindow ? Math.floor((limit * 60) / policyWindow) : limit;
    if (remaining !== undefined) {
      this.serverRemaining = { remaining, resetAt: this.clock.now() + (reset ?? 60) * 1000 };
    }
  }

  private waitMs(): number {
    const now = this.clock.now();
    if (now < this.blockedUntil) return this.blockedUntil - now;
    if (this.serverRemaining && this.serverRemaining.remaining <= 0 && now < this.serverRemaining.resetAt) return this.serverRemaining.resetAt - now;
    this.trim();
    if (this.sent.length < this.perMinute()) return 0;
    return (this.sent[0] as number) + WINDOW_MS - now;
  }

  private trim(): void {
    const cutoff = this.clock.now() - WINDOW_MS;
    let i = 0;
    while (i < this.sent.length && (this.sent[i] as number) <= cutoff) i++;
    if (i) this.sent.splice(0, i);
  }
}

function num(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v.trim());
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}
