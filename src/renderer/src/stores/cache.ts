import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { CachedMessage } from '../../../shared/api';
import { toErrorInfo, type ErrorInfo } from '../../../shared/errors';
import { clock, monitor } from '../client';

/** Light debounce: coalesces fast typing without making a single keystroke feel late. */
export const CACHE_DEBOUNCE_MS = 40;
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
  let cancelDebounce: (() => void) | null = null;

  const query = (t: string, offset: number) => ({ ...(t.trim() ? { text: t.trim() } : {}), limit: CACHE_PAGE, offset });

  async function search(): Promise<void> {
    cancelDebounce?.();
    cancelDebounce = null;
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

  /** Called on every keystroke: only the last text within the debounce window is searched. */
  function setText(t: string): void {
    text.value = t;
    cancelDebounce?.();
    cancelDebounce = clock().setTimer(() => void search(), CACHE_DEBOUNCE_MS);
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
