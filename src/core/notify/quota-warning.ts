import type { KeepUp, NotificationPayload, QuotaStatus } from '../../shared/contract';
import { PLAN_LABELS } from '../../shared/plans';
import { MAX_LATENESS_S } from '../../shared/policy';
import type { Logger } from '../log/logger';
import { dayKey } from '../data-api/quota-status';

/** Small JSON values kept across restarts (the poll-state table). */
interface Kept {
  get<T>(key: string): T | undefined;
  set(key: string, value: unknown): void;
}

export const QUOTA_WARNED_KEY = 'quota-warned';
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const utcTime = (t: number) => `${new Date(t).toISOString().slice(11, 16)} UTC`;

/** What the warning says: the spend so far, and where the current pace leads. */
function quotaWarningText(q: QuotaStatus): Pick<NotificationPayload, 'title' | 'body'> {
  const spent = `${fmt(q.spentCuToday)} of ${fmt(q.cuPerDay)} CU spent today (${q.plan} plan)`;
  if (q.level === 'exhausted')
    return {
      title: "Data API quota: today's share is spent",
      body: `${spent}. Polling waits for the reset at 00:00 UTC; nothing is lost, detection is later.`,
    };
  const where =
    q.runsOutAt !== null
      ? `at this pace the quota would run out at ${utcTime(q.runsOutAt)}`
      : `at this pace the day ends at ${Math.round((100 * q.projectedCuToday) / q.cuPerDay)} % of the quota`;
  return {
    title: 'Data API quota: running high',
    body: `${spent}; ${where}. Polling slows to make the quota last the day (it resets at 00:00 UTC); a higher plan or fewer watches raise the margin.`,
  };
}

/**
 * A warning said once a UTC day (remembered across restarts under `key`): a log line and a notification
 * through `announce`, whenever `text` finds something to say.
 */
export class DailyWarning<T> {
  constructor(
    private readonly key: string,
    private readonly text: (v: T) => Pick<NotificationPayload, 'title' | 'body'> | null,
    private readonly kept: Kept,
    private readonly logger: Logger,
    private readonly announce: (n: Pick<NotificationPayload, 'title' | 'body'>) => Promise<void> | void,
    private readonly now: () => number,
  ) {}

  async observe(v: T): Promise<void> {
    const text = this.text(v);
    if (!text) return;
    const today = dayKey(this.now());
    if (this.kept.get<string>(this.key) === today) return;
    this.kept.set(this.key, today);
    this.logger.warn(text.title, { detail: text.body });
    await this.announce(text);
  }
}

/** The quota warning: when the quota line turns to warning or exhausted. */
export const quotaWarning = (q: QuotaStatus | undefined) => (!q || q.level === 'ok' ? null : quotaWarningText(q));

export const KEEP_UP_WARNED_KEY = 'keep-up-warned';

/** What the keep-up warning says: nothing is lost, how late, and the plan that would keep up. */
export function keepUpText(k: KeepUp): Pick<NotificationPayload, 'title' | 'body'> {
  const plan = k.planThatWould
    ? `The ${PLAN_LABELS[k.planThatWould]} plan would keep up (about ${k.needPerMinute} requests a minute).`
    : `No published plan keeps up (about ${k.needPerMinute} requests a minute): watch fewer addresses or a quieter network.`;
  return {
    title: 'Data API plan: the list is busier than it keeps up with',
    body: `Nothing is lost: each record is read twice instead of at every overlap, so late records and changes show up to ${MAX_LATENESS_S / 60} min late (the status bar says how far behind). ${plan}`,
  };
}

/** The keep-up warning: when the plan stops keeping up with the list. */
export const keepUpWarning = (k: KeepUp | null) => (k ? keepUpText(k) : null);
