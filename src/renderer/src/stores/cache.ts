import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { CachedMessage } from '../../../shared/api';
import { toErrorInfo, type ErrorInfo } from '../../../shared/errors';
import { monitor } from '../client';

export const CACHE_PAGE = 200;

/** The local cache search room: text filter over observed messages, results paged into a virtual list. */
export const useCacheStore = defineStore('cache', () => {
  const text = ref('');
  const items = shallowRef<CachedMessage[]>([]);
  const total = ref(0);
  const loading = ref(false);
  const loaded = ref(false);
  const error = ref<ErrorInfo | null>(null);
  /** The text the current items answer (may lag `text` while a search is in flight). */
  const shownText = ref<string | null>(null);
  let seq = 0;
  let inFlight = false;
  let queued = false;

  const query = (t: string, offset: number) => ({ ...(t.trim() ? { text: t.trim() } : {}), limit: CACHE_PAGE, offset });

  async function search(): Promise<void> {
    const my = ++seq;
    const t = text.value;
    loading.value = true;
    try {
      const page = await monitor().searchCache(query(t, 0));
      if (my !== seq) return;
      items.value = page.items;
      total.value = page.total;
      shownText.value = t;
      loaded.value = true;
      error.value = null;
    } catch (e) {
      if (my === seq) error.value = toErrorInfo(e);
    } finally {
      if (my === seq) loading.value = false;
    }
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

  async function loadMore(): Promise<void> {
    if (loading.value || items.value.length >= total.value) return;
    const my = ++seq;
    loading.value = true;
    try {
      const page = await monitor().searchCache(query(shownText.value ?? '', items.value.length));
      if (my !== seq) return;
      items.value = [...items.value, ...page.items];
      total.value = page.total;
    } catch (e) {
      if (my === seq) error.value = toErrorInfo(e);
    } finally {
      if (my === seq) loading.value = false;
    }
  }

  return { text, items, total, loading, loaded, error, shownText, search, setText, loadMore };
});
