import type { PollStatus } from '../../../shared/contract';
import { formatDuration } from '../../../shared/format';
import { PLAN_LABELS } from '../../../shared/plans';
import { MAX_LATENESS_S } from '../../../shared/policy';
import { MINUTE_MS } from '../../../shared/time';

interface QuotaLine {
  /** Today's spend against the day's quota, and where the current pace leads. */
  text: string;
  /** Worth the user's eye: the pace would spend 80 % of the quota or more, or today's share is spent. */
  warn: boolean;
  /** "reads 4 min behind" when the budget cut the last cycle short by a minute or more (null: not behind). */
  behind: string | null;
  /** The plan does not keep up with the list: nothing lost, up to 30 min late, and the plan that would (null: it keeps up). */
  keepUp: string | null;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const utc = (t: number) => `${new Date(t).toISOString().slice(11, 16)} UTC`;

/** The status bar's quota line (null before the poller has a data source). */
export function quotaLine(p: PollStatus): QuotaLine | null {
  const q = p.quota;
  if (!q) return null;
  const unlimited = q.cuPerDay >= Number.MAX_SAFE_INTEGER;
  const spent = unlimited
    ? `today ${fmt(q.spentCuToday)} CU (${fmt(q.requestsToday)} requests), no daily quota`
    : `today ${fmt(q.spentCuToday)} / ${fmt(q.cuPerDay)} CU (${fmt(q.requestsToday)} requests, ${q.plan} plan)`;
  let pace = '';
  if (!unlimited) {
    if (q.level === 'exhausted') pace = ` · today's share spent, resumes 00:00 UTC`;
    else if (q.runsOutAt !== null) pace = ` · at this pace runs out at ${utc(q.runsOutAt)}, polling slows to last the day`;
    else pace = ` · at this pace ${Math.round((100 * q.projectedCuToday) / q.cuPerDay)} % by 00:00 UTC`;
  }
  // Under a minute is within the poll cadence: not worth a word.
  const behind = (p.behindMs ?? 0) >= MINUTE_MS ? `reads ${formatDuration(Math.round((p.behindMs ?? 0) / MINUTE_MS) * 60)} behind` : null;
  const k = p.keepUp;
  const keepUp = k
    ? `busier than the plan keeps up with: nothing lost, up to ${MAX_LATENESS_S / 60} min late · ${k.planThatWould ? `the ${PLAN_LABELS[k.planThatWould]} plan would keep up` : 'no plan would keep up'}`
    : null;
  return { text: spent + pace, warn: q.level !== 'ok', behind, keepUp };
}
