import type { Clock } from '../../shared/clock';

const WINDOW_MS = 60_000;

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

  /** Waits until a request may go out, then counts it. */
  async acquire(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const wait = this.waitMs();
      if (wait <= 0) break;
      await this.clock.sleep(wait, signal);
    }
    this.sent.push(this.clock.now());
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
