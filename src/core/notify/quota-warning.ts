import type { NotificationPayload, QuotaStatus } from '../../shared/contract';
import type { Logger } from '../log/logger';
import { dayKey } from '../data-api/quota-status';

/** Small JSON values kept across restarts (the poll-state table). */
interface Kept {
  get<T>(key: string): T | undefined;
  set(key: string, value: unknown): void;
}

const KEY = 'quota-warned';
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
 * Warns once a UTC day (remembered across restarts) when the quota line turns to warning or
 * exhausted: a log line and a notification through `announce`.
 */
export class QuotaWarning {
  constructor(
    private readonly kept: Kept,
    private readonly logger: Logger,
    private readonly announce: (n: Pick<NotificationPayload, 'title' | 'body'>) => Promise<void> | void,
    private readonly now: () => number,
  ) {}

  async observe(q: QuotaStatus | undefined): Promise<void> {
    if (!q || q.level === 'ok') return;
    const today = dayKey(this.now());
    if (this.kept.get<string>(KEY) === today) return;
    this.kept.set(KEY, today);
    const text = quotaWarningText(q);
    this.logger.warn(text.title, { detail: text.body });
    await this.announce(text);
  }
}
