import type { CachedMessage } from '../../../shared/api';
import { shortHex } from '../../../shared/format';
import { statusTag, summarize, summaryTime, type TagType } from './message-view';

/** What one cache search row shows: computed once per result, so rendering reads plain strings. */
export interface CacheRow {
  /** Position in the result list (also the row's key, so a new search patches rows instead of remounting them). */
  index: number;
  messageId: string;
  shortId: string;
  status: string;
  statusLabel: string;
  statusType: TagType;
  route: string;
  from: string | null;
  shortFrom: string;
  /** Epoch ms of the newest known time (last seen when the record has none). */
  at: number;
}

export function toCacheRow(item: CachedMessage, index: number): CacheRow {
  const s = summarize(item.message, { reward: false });
  const t = summaryTime(s);
  const tag = statusTag(s.status);
  return Object.freeze({
    index,
    messageId: s.messageId,
    shortId: shortHex(s.messageId, 10, 6),
    status: s.status,
    statusLabel: tag.label,
    statusType: tag.type,
    route: `${s.sourceLabel} → ${s.destinationLabel}`,
    from: s.from ?? null,
    shortFrom: s.from ? shortHex(s.from) : '—',
    at: t === undefined ? item.lastSeenAt : t * 1000,
  });
}
