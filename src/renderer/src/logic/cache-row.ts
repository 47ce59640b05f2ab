import type { CacheSummary } from '../../../shared/contract';
import { chainLabel } from '../../../shared/chains';
import { statusTag, type TagType } from './message-view';

/** What one cache search row shows: computed once per result, so rendering reads plain strings. */
export interface CacheRow {
  /** Position in the result list (also the row's key, so a new search patches rows instead of remounting them). */
  index: number;
  messageId: string;
  status: string;
  statusLabel: string;
  statusType: TagType;
  route: string;
  from: string | null;
  /** Epoch ms of the newest known time (last seen when the record has none). */
  at: number;
  /** The data source that showed it, and when it last did (another source's rows are marked). */
  source: string;
  lastSeenAt: number;
}

export function toCacheRow(item: CacheSummary, index: number): CacheRow {
  const tag = statusTag(item.status);
  return Object.freeze({
    index,
    messageId: item.messageId,
    status: item.status,
    statusLabel: tag.label,
    statusType: tag.type,
    route: `${chainLabel(item.sourceChain ?? undefined)} → ${chainLabel(item.destinationChain ?? undefined)}`,
    from: item.from,
    at: item.time === null ? item.lastSeenAt : item.time * 1000,
    source: item.source,
    lastSeenAt: item.lastSeenAt,
  });
}
