import { computed, ref, shallowRef } from 'vue';
import type { MessagePage } from '../../../shared/contract';
import { toErrorInfo, type ErrorInfo } from '../../../shared/errors';
import { coalesce } from './coalesce';

/**
 * Next/previous through cursor tokens: the API only goes forward, so keep the token of every page
 * visited (`tokens[i]` fetches page i; page 0 has none). Stale answers (an older request finishing
 * after a newer one) are dropped.
 */
export function createPager(fetchPage: (pageToken: string | undefined) => Promise<MessagePage>) {
  const tokens = ref<(string | undefined)[]>([undefined]);
  const index = ref(0);
  const page = shallowRef<MessagePage | null>(null);
  const loading = ref(false);
  const error = ref<ErrorInfo | null>(null);
  let seq = 0;

  const hasNext = computed(() => !!page.value?.nextPageToken);
  const hasPrev = computed(() => index.value > 0);

  async function load(at: number): Promise<boolean> {
    const my = ++seq;
    loading.value = true;
    try {
      const p = await fetchPage(tokens.value[at]);
      if (my !== seq) return false;
      page.value = p;
      index.value = at;
      tokens.value = tokens.value.slice(0, at + 1);
      if (p.nextPageToken) tokens.value.push(p.nextPageToken);
      error.value = null;
      return true;
    } catch (e) {
      if (my !== seq) return false;
      error.value = toErrorInfo(e);
      return false;
    } finally {
      if (my === seq) loading.value = false;
    }
  }

  /** Re-reads the shown page; while one re-read runs, further asks become one more (never a pile-up). */
  const refreshSoon = coalesce(() => load(index.value));

  return {
    tokens,
    index,
    page,
    loading,
    error,
    hasNext,
    hasPrev,
    /** From the first page (new filter). */
    first: () => {
      tokens.value = [undefined];
      return load(0);
    },
    refresh: () => load(index.value),
    refreshSoon,
    /** Rewrites the shown page in place (no request); `update` returns null to leave it as it is. */
    patch: (update: (shown: MessagePage) => MessagePage | null) => {
      const next = page.value && update(page.value);
      if (next) page.value = next;
    },
    next: () => (hasNext.value ? load(index.value + 1) : Promise.resolve(false)),
    prev: () => (hasPrev.value ? load(index.value - 1) : Promise.resolve(false)),
    reset: () => {
      seq++;
      tokens.value = [undefined];
      index.value = 0;
      page.value = null;
      loading.value = false;
      error.value = null;
    },
  };
}
