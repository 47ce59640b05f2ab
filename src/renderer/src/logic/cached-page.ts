import type { CachedMessage, MessagePage } from '../../../shared/contract';
import { messageTimestamp, type TeleporterMessage } from '../../../shared/messages';
import { monitor } from '../client';

/**
 * Applies the core's cached copies of messages to a page read earlier from the data source, so a
 * poll batch redraws the page without another request. A cached copy last seen before the page was
 * read is older than the row and is left out. A row the cache holds a newer copy of is replaced in
 * place; with `insert` (a first page, newest first), a message the page lacks is placed by its time,
 * unless it is older than the page's last row while deeper pages exist (it belongs on one of those).
 * Returns null when nothing changes.
 */
export function mergeCachedMessages(page: MessagePage, cached: readonly CachedMessage[], insert: boolean): MessagePage | null {
  const fresh = new Map<string, TeleporterMessage>();
  for (const c of cached) if (c.lastSeenAt >= page.fetchedAt) fresh.set(c.message.messageId, c.message);
  if (fresh.size === 0) return null;
  let changed = false;
  const rows = page.messages.map((m) => {
    const copy = fresh.get(m.messageId);
    if (!copy) return m;
    fresh.delete(m.messageId);
    changed = true;
    return copy;
  });
  if (insert) {
    // Newest first; a record without a time goes to the top (it is what just arrived).
    for (const m of [...fresh.values()].sort((a, b) => timeOf(b) - timeOf(a))) {
      const at = rows.findIndex((r) => timeOf(r) < timeOf(m));
      if (at < 0 && page.nextPageToken) continue;
      rows.splice(at < 0 ? rows.length : at, 0, m);
      changed = true;
    }
  }
  return changed ? { ...page, messages: rows } : null;
}

const timeOf = (m: TeleporterMessage): number => messageTimestamp(m) ?? Number.POSITIVE_INFINITY;

/** The distinct IDs, keeping the last `max` (a batch is oldest first, so these are the newest). */
export function lastDistinct(ids: readonly string[], max: number): string[] {
  const out = [...new Set([...ids].reverse())].slice(0, max);
  return out.reverse();
}

/** The core's cached copies of these messages: a read of its local cache, never a Data API request. Messages it no longer holds and failed reads are left out. */
export async function readCachedMessages(ids: readonly string[]): Promise<CachedMessage[]> {
  const answers = await Promise.all(
    ids.map((messageId) =>
      monitor()
        .getMessage({ messageId })
        .catch(() => null),
    ),
  );
  return answers.filter((c): c is CachedMessage => c !== null);
}
