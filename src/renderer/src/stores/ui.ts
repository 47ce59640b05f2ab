import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { CachedMessage, FoundMessage } from '../../../shared/contract';
import { toErrorInfo, type ErrorInfo } from '../../../shared/errors';
import type { TeleporterMessage } from '../../../shared/messages';
import { monitor, useMonitorEvents } from '../client';

/** In nav order; Alt+1… opens them in this order (Relayers came last, so the older shortcuts keep their keys). */
export const VIEWS = ['messages', 'watchlist', 'activity', 'cache', 'charts', 'settings', 'relayers'] as const;
export type ViewName = (typeof VIEWS)[number];

/** Hash routing (`#/watchlist`): Electron loads the page from file://, so no history API paths. */
export function viewFromHash(hash: string): ViewName {
  const name = hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? '';
  return (VIEWS as readonly string[]).includes(name) ? (name as ViewName) : 'messages';
}

/** Which view is shown and which message the detail drawer holds. */
export const useUiStore = defineStore('ui', () => {
  // Read the route before the first render, so opening #/cache never mounts Messages first.
  const view = ref<ViewName>(typeof window === 'undefined' ? 'messages' : viewFromHash(window.location.hash));
  const detailOpen = ref(false);
  const detailId = ref<string | null>(null);
  const detail = shallowRef<TeleporterMessage | null>(null);
  const detailCached = shallowRef<CachedMessage | null>(null);
  const detailLoading = ref(false);
  const detailError = ref<ErrorInfo | null>(null);
  /** Why the drawer shows a cached copy rather than the data source's answer (Find by ID). */
  const detailNote = ref<string | null>(null);
  let seq = 0;

  function go(v: ViewName): void {
    view.value = v;
    if (typeof window !== 'undefined' && viewFromHash(window.location.hash) !== v) window.location.hash = `#/${v}`;
  }

  /** Opens a message we already hold (from a list). */
  function openMessage(m: TeleporterMessage): void {
    seq++;
    detailId.value = m.messageId;
    detail.value = m;
    detailCached.value = null;
    detailError.value = null;
    detailNote.value = null;
    detailLoading.value = false;
    detailOpen.value = true;
  }

  /** Opens what Find by ID returned (the data source's record, or the cached copy with a note). */
  function openFound(f: FoundMessage): void {
    openMessage(f.message);
    detailCached.value = f.cached;
    detailNote.value = f.note ?? null;
  }

  /** Opens a message by ID (toast, activity, focus-message event): looks it up in the local cache. */
  async function openMessageById(messageId: string): Promise<void> {
    const my = ++seq;
    detailId.value = messageId;
    detail.value = null;
    detailCached.value = null;
    detailError.value = null;
    detailNote.value = null;
    detailOpen.value = true;
    detailLoading.value = true;
    try {
      const c = await monitor().getMessage({ messageId });
      if (my !== seq) return;
      detailCached.value = c;
      detail.value = c?.message ?? null;
    } catch (e) {
      if (my === seq) detailError.value = toErrorInfo(e);
    } finally {
      if (my === seq) detailLoading.value = false;
    }
  }

  function closeDetail(): void {
    detailOpen.value = false;
  }

  /** A drawer showing the cache's copy of a message reads it again (it may have moved on meanwhile). */
  async function resync(): Promise<void> {
    const id = detailId.value;
    // Only a drawer opened by ID shows the cache's copy itself (a list's or Find's record stays as read).
    if (!detailOpen.value || !id || !detailCached.value || detail.value !== detailCached.value.message) return;
    const my = seq;
    try {
      const c = await monitor().getMessage({ messageId: id });
      if (my !== seq || !c) return;
      detailCached.value = c;
      detail.value = c.message;
    } catch {
      // The copy shown stays; the drawer's own reload reports errors.
    }
  }

  // A desktop notification was clicked (the shell asks to show its message); errors land in detailError.
  useMonitorEvents({ 'focus-message': (e) => void openMessageById(e.messageId) });

  return {
    view,
    detailOpen,
    detailId,
    detail,
    detailCached,
    detailLoading,
    detailError,
    detailNote,
    go,
    openMessage,
    openFound,
    openMessageById,
    closeDetail,
    resync,
  };
});
