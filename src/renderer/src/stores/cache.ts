import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { CachePage } from '../../../shared/contract';
import type { ErrorInfo } from '../../../shared/errors';
import { monitor } from '../client';
import { CACHE_PAGE } from '../logic/cache-page';
import { toCacheRow, type CacheRow } from '../logic/cache-row';
import { latestRead } from '../logic/latest-read';

/**
 * The local cache search room: text filter over observed messages, paged into a virtual list.
 * The core answers with slim result rows (a row's fields, not the records: opening one fetches it);
 * they become frozen display rows in a shallowRef, so nothing walks them reactively.
 */
export const useCacheStore = defineStore('cache', () => {
  const text = ref('');
  const rows = shallowRef<CacheRow[]>([]);
  const total = ref(0);
  /** The core stopped counting at `total`: there are more matches than that. */
  const totalCapped = ref(false);
  const loading = ref(false);
  const loaded = ref(false);
  const error = ref<ErrorInfo | null>(null);
  /** The text the current rows answer (may lag `text` while a search is in flight). */
  const shownText = ref<string | null>(null);
  /** The last page came back full, so there may be more (needed when the count is capped). */
  let lastPageFull = false;
  const reads = latestRead(loading, error);
  let inFlight = false;
  let queued = false;

  /** Time order of the rows (the Time column's header switches it). */
  const order = ref<'newest' | 'oldest'>('newest');
  const query = (t: string, offset: number) => ({
    ...(t.trim() ? { text: t.trim() } : {}),
    limit: CACHE_PAGE,
    offset,
    ...(order.value === 'oldest' ? { order: 'oldest' as const } : {}),
  });

  function show(page: CachePage, append: boolean): void {
    const slim = page.items.map((item, i) => toCacheRow(item, (append ? rows.value.length : 0) + i));
    // A new array each time: shallowRef tracks the reference, never the (frozen) rows inside.
    rows.value = append ? [...rows.value, ...slim] : slim;
    total.value = page.total;
    totalCapped.value = page.totalCapped === true;
    lastPageFull = page.items.length >= CACHE_PAGE;
  }

  function search(): Promise<void> {
    const t = text.value;
    return reads.run(
      () => monitor().searchCache(query(t, 0)),
      (page) => {
        show(page, false);
        shownText.value = t;
        loaded.value = true;
      },
    );
  }

  /**
   * Called on every keystroke. The lightest debounce there is: no timer, at most one search in flight;
   * keystrokes that arrive meanwhile collapse into one follow-up search for the latest text. A lone
   * keystroke is searched at once, and fast typing never queues stale searches.
   */
  function setText(t: string): Promise<void> {
    text.value = t;
    if (inFlight) {
      queued = true;
      return Promise.resolve();
    }
    return drain();
  }

  async function drain(): Promise<void> {
    inFlight = true;
    try {
      do {
        queued = false;
        await search();
      } while (queued);
    } finally {
      inFlight = false;
    }
  }

  const hasMore = (): boolean => rows.value.length < total.value || (totalCapped.value && lastPageFull);

  /** The next page of the shown search (on scroll); a no-op while a search runs or when all are here. */
  function loadMore(): Promise<void> {
    if (loading.value || !loaded.value || !hasMore()) return Promise.resolve();
    return reads.run(
      () => monitor().searchCache(query(shownText.value ?? '', rows.value.length)),
      (page) => show(page, true),
    );
  }

  /** Newest first ⇄ oldest first: the search runs again from the top. */
  function toggleOrder(): Promise<void> {
    order.value = order.value === 'newest' ? 'oldest' : 'newest';
    return search();
  }

  /** The shown search from the top again; nothing until the view first searched. */
  const resync = (): Promise<void> => (loaded.value ? search() : Promise.resolve());

  return { text, rows, total, totalCapped, loading, loaded, error, shownText, order, search, setText, loadMore, toggleOrder, resync };
});
