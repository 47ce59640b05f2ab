import type { AlertChannelState } from '../../../shared/alert-schemas';
import { clockTime, formatDuration } from '../../../shared/format';
import { ALERT_RETRY_MAX_MS } from '../../../shared/policy';

const ALERT_RETRY_MAX_S = ALERT_RETRY_MAX_MS / 1000;

/** A channel's delivery state in words, for its row under Settings → Alert channels ("failing since 14:02 …"). */
export function channelStateText(s: AlertChannelState, now: number): string {
  if (s.failures === 0) return s.pending ? `delivering (${s.pending} waiting)` : 'delivering';
  const since = s.failingSince === null ? '' : ` since ${clockTime(s.failingSince)}`;
  const next =
    s.nextAttemptAt === null ? '' : s.nextAttemptAt <= now ? '; trying again now' : `; next try in ${formatDuration((s.nextAttemptAt - now) / 1000)}`;
  const attempts = `${s.failures} failed attempt${s.failures === 1 ? '' : 's'} in a row, backing off up to ${formatDuration(ALERT_RETRY_MAX_S)}`;
  return `failing${since} (${attempts})${next}; ${s.pending} alert${s.pending === 1 ? '' : 's'} kept${s.lastError ? `: ${s.lastError}` : ''}`;
}
