import type { Clock } from '../../shared/clock';
import { MonitorError, type ErrorInfo } from '../../shared/errors';
import { QUOTA_SAFETY_MARGIN, REQUEST_CU, type PlanLimits } from '../../shared/plans';
import type { QuotaStatus } from '../../shared/contract';
import { MAX_QUEUE_WAIT_MS, PACE_WINDOW_MS } from '../../shared/policy';
import { DAY_MINUTES, DAY_MS, MINUTE_MS } from '../../shared/time';
import { dayKey, dayStart, quotaStatus } from './quota-status';

/** A plan's per-minute limit holds over any sliding minute. */
const WINDOW_MS = MINUTE_MS;

/** Today's spend as kept across restarts (the day is the UTC date, `YYYY-MM-DD`). */
export interface DaySpend {
  day: string;
  cu: number;
  requests: number;
}

export interface SpendStore {
  load(): DaySpend | undefined;
  save(s: DaySpend): void;
}

interface BudgetOptions {
  maxQueueWaitMs?: number;
  /** Where today's spend is kept, so a restart does not start the day again. */
  store?: SpendStore;
  /** Share of each limit held back (default QUOTA_SAFETY_MARGIN). */
  margin?: number;
  /** The plan's name, for the status line. */
  planName?: string;
}

/**
 * Compute units (CU) allowed against one base URL, by the plan's two limits: a sliding minute of
 * weighted sends under the per-minute limit, and the UTC day's spend under a pace line that spreads
 * the day's quota over its 1440 minutes (what is not spent early may be spent later, the day never
 * passes its quota). Both keep a safety margin and are narrowed by what the server says in its
 * ratelimit-* headers (in CU, as the public API sends them) and by Retry-After. The poller plans
 * within `available()` (requests); `acquire()` is the last guard before every request.
 */
export class RequestBudget {
  /** Sends of the last PACE_WINDOW_MS, oldest first. */
  private log: { t: number; cu: number }[] = [];
  private day: DaySpend;
  private blockedUntil = 0;
  private serverMinuteCu: number | null = null;
  private serverRemaining: { cu: number; resetAt: number } | null = null;
  private serverDay: { cu: number; resetAt: number } | null = null;
  private limits!: PlanLimits;
  private planName = 'custom';
  private readonly maxQueueWaitMs: number;
  private readonly margin: number;

  /**
   * `limits`: the plan's figures, or a plain number of requests per minute (no day limit and no
   * margin: the form tools and tests use for a simple rate).
   */
  constructor(
    private readonly clock: Clock,
    limits: PlanLimits | number,
    private readonly opts: BudgetOptions = {},
  ) {
    this.maxQueueWaitMs = opts.maxQueueWaitMs ?? MAX_QUEUE_WAIT_MS;
    this.margin = typeof limits === 'number' ? 0 : (opts.margin ?? QUOTA_SAFETY_MARGIN);
    this.setLimits(limits, opts.planName);
    const today = dayKey(clock.now());
    const kept = opts.store?.load();
    this.day = isDaySpend(kept) && kept.day === today ? { ...kept } : { day: today, cu: 0, requests: 0 };
  }

  setLimits(limits: PlanLimits | number, planName?: string): void {
    this.limits = typeof limits === 'number' ? { cuPerMinute: limits * REQUEST_CU, cuPerDay: Number.MAX_SAFE_INTEGER } : limits;
    this.planName = planName ?? (typeof limits === 'number' ? 'requests per minute' : 'custom');
  }

  /** CU a minute we allow ourselves: the plan's less the margin, or the server's when it announces less. */
  minuteCapCu(): number {
    const ours = Math.floor(this.limits.cuPerMinute * (1 - this.margin));
    return this.serverMinuteCu !== null ? Math.min(ours, this.serverMinuteCu) : ours;
  }

  /** CU today may spend at most: the plan's day less the margin. */
  dayCapCu(): number {
    return Math.floor(this.limits.cuPerDay * (1 - this.margin));
  }

  /** CU a minute the day's quota sustains. */
  sustainedCuPerMinute(): number {
    return this.dayCapCu() / DAY_MINUTES;
  }

  /** Requests per minute the poller plans on: the day's sustained pace, within the minute cap. */
  perMinute(): number {
    return Math.max(1, Math.floor(Math.min(this.sustainedCuPerMinute(), this.minuteCapCu()) / REQUEST_CU));
  }

  /** Requests a single minute may take (the burst cap). */
  burstPerMinute(): number {
    return Math.max(1, Math.floor(this.minuteCapCu() / REQUEST_CU));
  }

  usedLastMinute(): number {
    const cutoff = this.clock.now() - WINDOW_MS;
    let n = 0;
    for (let i = this.log.length - 1; i >= 0 && (this.log[i] as { t: number }).t > cutoff; i--) n++;
    return n;
  }

  private cuLastMinute(): number {
    const cutoff = this.clock.now() - WINDOW_MS;
    let sum = 0;
    for (let i = this.log.length - 1; i >= 0; i--) {
      const e = this.log[i] as { t: number; cu: number };
      if (e.t <= cutoff) break;
      sum += e.cu;
    }
    return sum;
  }

  /**
   * CU the pace line allows spent by `now` today: the day's quota spread evenly from 00:00 UTC and one
   * minute of that pace ahead of it (a new day's first reads go out at once), no more: the minute cap's
   * burst on top put a run from 00:00 over the even pace the benchmarks hold every poller to, where one
   * minute of pace stays within it after 20 minutes, the margin being 5 %. A start later in the day has
   * what was not spent before it.
   */
  private allowance(now: number): number {
    // A plain rate has no day to spread (setLimits' number form).
    if (this.limits.cuPerDay === Number.MAX_SAFE_INTEGER) return this.dayCapCu();
    const elapsed = now - dayStart(now);
    return Math.min(this.dayCapCu(), (this.dayCapCu() * (elapsed + WINDOW_MS)) / DAY_MS);
  }

  /** CU that may go out now without waiting. */
  private roomCu(): number {
    const now = this.clock.now();
    this.roll();
    if (now < this.blockedUntil) return 0;
    let room = Math.min(this.minuteCapCu() - this.cuLastMinute(), this.allowance(now) - this.day.cu);
    if (this.serverRemaining && now < this.serverRemaining.resetAt) room = Math.min(room, this.serverRemaining.cu);
    if (this.serverDay && now < this.serverDay.resetAt) room = Math.min(room, this.serverDay.cu);
    return Math.max(0, room);
  }

  /** Requests the day's pace line has saved up so far (spent less than it allowed): what may go faster than the pace a while. */
  savedRequests(): number {
    this.roll();
    return Math.max(0, Math.floor((this.allowance(this.clock.now()) - this.day.cu) / REQUEST_CU));
  }

  /** Requests (at the list operations' weight) that may be sent now without waiting. */
  available(): number {
    return Math.floor(this.roomCu() / REQUEST_CU);
  }

  /** What the server's last ratelimit-remaining said, in CU, while its window lasts (null: unknown). */
  serverRemainingNow(): number | null {
    return this.serverRemaining && this.clock.now() < this.serverRemaining.resetAt ? this.serverRemaining.cu : null;
  }

  blockedUntilTime(): number | null {
    return this.clock.now() < this.blockedUntil ? this.blockedUntil : null;
  }

  /** After a 429: nothing goes out before `until`. */
  blockUntil(until: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, until);
  }

  /**
   * Waits until a request of `cu` may go out, then counts it. A wait that would end past the queue
   * limit fails at once with a rate_limited MonitorError naming the cause (never an endless queue).
   */
  async acquire(signal?: AbortSignal, cu: number = REQUEST_CU): Promise<void> {
    const deadline = this.clock.now() + this.maxQueueWaitMs;
    for (;;) {
      const wait = this.waitMs(cu);
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
    const now = this.clock.now();
    this.log.push({ t: now, cu });
    this.day.cu += cu;
    this.day.requests += 1;
    this.trim(now);
    this.opts.store?.save({ ...this.day });
  }

  /** How long before `cu` may go out (0: now). */
  private waitMs(cu: number): number {
    const now = this.clock.now();
    this.roll();
    if (now < this.blockedUntil) return this.blockedUntil - now;
    const r = this.serverRemaining;
    if (r && r.cu < cu && now < r.resetAt) return r.resetAt - now;
    const d = this.serverDay;
    if (d && d.cu < cu && now < d.resetAt) return d.resetAt - now;
    if (this.day.cu + cu > this.dayCapCu()) return dayStart(now) + DAY_MS - now;
    let wait = 0;
    const over = this.day.cu + cu - this.allowance(now);
    if (over > 0) wait = Math.ceil((over * DAY_MS) / this.dayCapCu());
    const minuteOver = this.cuLastMinute() + cu - this.minuteCapCu();
    if (minuteOver > 0) wait = Math.max(wait, this.minuteFreesIn(minuteOver, now));
    return wait;
  }

  /** Ms until sends worth `need` CU leave the minute window. */
  private minuteFreesIn(need: number, now: number): number {
    const cutoff = now - WINDOW_MS;
    let freed = 0;
    for (const e of this.log) {
      if (e.t <= cutoff) continue;
      freed += e.cu;
      if (freed >= need) return e.t + WINDOW_MS - now;
    }
    return WINDOW_MS;
  }

  /** A new UTC day starts from nothing. */
  private roll(): void {
    const today = dayKey(this.clock.now());
    if (this.day.day !== today) {
      this.day = { day: today, cu: 0, requests: 0 };
      this.opts.store?.save({ ...this.day });
    }
  }

  private trim(now: number): void {
    const cutoff = now - PACE_WINDOW_MS;
    let i = 0;
    while (i < this.log.length && (this.log[i] as { t: number }).t < cutoff) i++;
    if (i) this.log.splice(0, i);
  }

  /** Today's spend, the quota, and where the current pace leads. */
  quota(): QuotaStatus {
    const now = this.clock.now();
    this.roll();
    this.trim(now);
    // Always over the whole window: a burst just after a start (the watches' first reads) is not a pace.
    let recent = 0;
    for (const e of this.log) if (e.t >= now - PACE_WINDOW_MS) recent += e.cu;
    return quotaStatus({
      now,
      plan: this.planName,
      limits: this.limits,
      dayCapCu: this.dayCapCu(),
      spentCu: this.day.cu,
      requests: this.day.requests,
      cuLastMinute: this.cuLastMinute(),
      paceCuPerMinute: (recent * WINDOW_MS) / PACE_WINDOW_MS,
    });
  }

  /**
   * Why no request may go out now, naming the real cause: the server's 429 (with its wait), the
   * server's announced window, the day's quota, the pace that makes it last, or the minute's limit.
   */
  shortfall(): ErrorInfo {
    const now = this.clock.now();
    this.roll();
    const secs = (t: number) => Math.max(1, Math.ceil((t - now) / 1000));
    if (now < this.blockedUntil) {
      return {
        kind: 'rate_limited',
        retryAt: this.blockedUntil,
        message: `The server answered HTTP 429 (too many requests) and asked to wait ${secs(this.blockedUntil)} s; polling resumes then.`,
      };
    }
    for (const [r, what] of [
      [this.serverRemaining, 'this window'],
      [this.serverDay, 'today'],
    ] as const) {
      if (r && r.cu < REQUEST_CU && now < r.resetAt) {
        return {
          kind: 'rate_limited',
          retryAt: r.resetAt,
          message: `The server's rate limit for ${what} is used up (it announced ${r.cu} CU remaining); it resets in ${secs(r.resetAt)} s and polling resumes then.`,
        };
      }
    }
    const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
    const reset = dayStart(now) + DAY_MS;
    if (this.day.cu + REQUEST_CU > this.dayCapCu()) {
      return {
        kind: 'rate_limited',
        retryAt: reset,
        message: `Today's quota is spent: ${fmt(this.day.cu)} of ${fmt(this.dayCapCu())} CU (the ${this.planName} plan's day less a ${Math.round(this.margin * 100)} % margin); polling resumes at 00:00 UTC. A higher plan raises the quota.`,
      };
    }
    const used = this.cuLastMinute();
    const frees = now + this.minuteFreesIn(Math.max(1, used + REQUEST_CU - this.minuteCapCu()), now);
    if (used + REQUEST_CU > this.minuteCapCu()) {
      const server = this.serverMinuteCu !== null && this.serverMinuteCu < Math.floor(this.limits.cuPerMinute * (1 - this.margin));
      return {
        kind: 'rate_limited',
        retryAt: frees,
        message: server
          ? `The server allows ${fmt(this.minuteCapCu())} CU per minute and ${fmt(used)} CU went out in the last minute; polling continues in ${secs(frees)} s. An API key raises the server's limit.`
          : `The minute's budget is used up: ${fmt(used)} of ${fmt(this.minuteCapCu())} CU in the last minute; polling continues in ${secs(frees)} s.`,
      };
    }
    const over = this.day.cu + REQUEST_CU - this.allowance(now);
    if (over > 0) {
      const at = now + Math.ceil((over * DAY_MS) / this.dayCapCu());
      return {
        kind: 'rate_limited',
        retryAt: at,
        message: `Polling is paced to make the day's quota last (${fmt(this.sustainedCuPerMinute())} CU a minute on the ${this.planName} plan); the next request may go in ${secs(at)} s.`,
      };
    }
    return {
      kind: 'rate_limited',
      message: `This poll cycle used its share of the budget (${this.perMinute()} requests a minute on the ${this.planName} plan); the next cycle continues.`,
    };
  }

  /**
   * Reads `ratelimit-limit` / `ratelimit-remaining` / `ratelimit-reset` (or the combined `ratelimit`),
   * in CU as the public API sends them; a `ratelimit-policy` window of an hour or more is the day's.
   */
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
    const now = this.clock.now();
    if (policyWindow !== undefined && policyWindow >= 3600) {
      if (remaining !== undefined) this.serverDay = { cu: remaining, resetAt: now + (reset ?? 60) * 1000 };
      return;
    }
    if (limit !== undefined) this.serverMinuteCu = policyWindow ? Math.floor((limit * 60) / policyWindow) : limit;
    if (remaining !== undefined) this.serverRemaining = { cu: remaining, resetAt: now + (reset ?? 60) * 1000 };
  }
}

/** What the store gave back is today's spend as this class wrote it (anything else: start the day from nothing). */
function isDaySpend(v: unknown): v is DaySpend {
  const d = v as DaySpend | null | undefined;
  const count = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n >= 0;
  return !!d && typeof d === 'object' && typeof d.day === 'string' && count(d.cu) && count(d.requests);
}

function num(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v.trim());
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}
