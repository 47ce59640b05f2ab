import { describe, expect, it } from 'vitest';
import type { CachedMessage, MessagePage } from '../../src/shared/contract';
import type { TeleporterMessage } from '../../src/shared/messages';
import { lastDistinct, mergeCachedMessages } from '../../src/renderer/src/logic/cached-page';
import { RecentIds } from '../../src/renderer/src/logic/recent-ids';
import { message } from './fixtures';

const FETCHED = 1_000_000;
const page = (messages: TeleporterMessage[], nextPageToken?: string): MessagePage => ({
  messages,
  rejected: 0,
  fetchedAt: FETCHED,
  ...(nextPageToken ? { nextPageToken } : {}),
});
const cached = (m: TeleporterMessage, lastSeenAt = FETCHED + 1): CachedMessage => ({
  message: m,
  network: 'mainnet',
  source: 'local',
  firstSeenAt: 0,
  lastSeenAt,
  watchedAddresses: [],
});
/** The fixture number n a message ID was made from (msgId(n)). */
const nOf = (id: string) => (Number.parseInt(id, 16) - 0x1234) / 104729;
const ids = (p: MessagePage | null) => p?.messages.map((m) => `${nOf(m.messageId)}:${m.status}`);
// Fixture n sends at 1_767_225_600 - n·60 s: a lower n is newer.
const row = (n: number, status = 'pending') => message({ n, status });
const label = (n: number, status = 'pending') => `${n}:${status}`;

describe("a page redrawn from the core's cache", () => {
  it('replaces a row the cache holds a newer copy of, in place', () => {
    const shown = page([row(1), row(2), row(3)]);
    expect(ids(mergeCachedMessages(shown, [cached(row(2, 'delivered'))], false))).toEqual([label(1), label(2, 'delivered'), label(3)]);
  });

  it('keeps a row read after the core last saw the message (the cached copy is older)', () => {
    const shown = page([row(1, 'delivered')]);
    expect(mergeCachedMessages(shown, [cached(row(1, 'pending'), FETCHED - 1)], false)).toBeNull();
  });

  it('inserts a message the page lacks by its time on a first page, and only there', () => {
    const shown = page([row(1), row(3), row(5)]);
    expect(ids(mergeCachedMessages(shown, [cached(row(0)), cached(row(4))], true))).toEqual([label(0), label(1), label(3), label(4), label(5)]);
    expect(mergeCachedMessages(shown, [cached(row(0))], false)).toBeNull();
  });

  it('leaves a message older than the last row to the deeper pages, or appends it when there are none', () => {
    expect(mergeCachedMessages(page([row(1), row(2)], 'next'), [cached(row(9))], true)).toBeNull();
    expect(ids(mergeCachedMessages(page([row(1), row(2)]), [cached(row(9))], true))).toEqual([label(1), label(2), label(9)]);
  });

  it('reads the newest distinct IDs of a batch (it is oldest first)', () => {
    expect(lastDistinct(['a', 'b', 'a', 'c', 'd'], 3)).toEqual(['a', 'c', 'd']);
  });
});

describe('RecentIds', () => {
  it('forgets the oldest beyond its bound, and keeps a group added together whole', () => {
    const seen = new RecentIds(3);
    seen.addAll([1, 2]);
    seen.addAll([3, 4]);
    expect([1, 2, 3, 4].filter((id) => seen.has(id))).toEqual([2, 3, 4]);
    seen.addAll([2]); // seen again: now the newest
    seen.addAll([5]);
    expect([2, 3, 4, 5].filter((id) => seen.has(id))).toEqual([2, 4, 5]);
    seen.addAll([10, 11, 12, 13, 14]);
    expect(seen.size).toBe(5);
    expect([10, 11, 12, 13, 14].every((id) => seen.has(id))).toBe(true);
    seen.addAll([15]);
    expect(seen.size).toBe(3);
  });
});
