import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { TransitionsEvent } from '../../../shared/contract';
import { clock, monitor, useMonitorEvents } from '../client';
import { mergeCachedMessages, readCachedMessages } from '../logic/cached-page';
import { buildBrowseQuery, emptyFilterForm, FILTER_FIELD_MAP, type BrowseQuery, type FilterForm } from '../logic/filter-form';
import { splitError, type FieldErrors } from '../logic/field-errors';
import { createPager } from '../logic/pager';
import { useSettingsStore } from './settings';

export const AUTO_REFRESH_MS = 15_000;

/** The Messages room: filter form, the applied query, paging through cursors, auto-refresh. */
export const useMessagesStore = defineStore('messages', () => {
  const form = ref<FilterForm>(emptyFilterForm());
  const applied = ref<BrowseQuery | null>(null);
  const fieldErrors = ref<FieldErrors>({});
  // On by default: the first page is a live view of the traffic.
  const autoRefresh = ref(true);
  const selected = ref(0);
  /** The last filter was refused: no rows are shown (never the previous filter's) until a valid one is applied. */
  const refused = ref(false);
  const settings = useSettingsStore();
  /** The data source (and network) the form and the rows belong to. */
  let shownSource: string | null = null;

  const pager = createPager((pageToken) => {
    const q = applied.value ?? { network: form.value.network };
    return monitor().browseMessages(pageToken ? { ...q, pageToken } : q);
  });

  const messages = computed(() => pager.page.value?.messages ?? []);

  /** Validates the form; on any invalid field marks it and sends nothing. */
  async function apply(): Promise<boolean> {
    const built = buildBrowseQuery(form.value);
    if (!built.ok) {
      refuse(built.errors);
      return false;
    }
    fieldErrors.value = {};
    refused.value = false;
    applied.value = built.query;
    shownSource = settings.currentSource;
    selected.value = 0;
    if (autoRefresh.value && !cancelTimer) schedule();
    const ok = await pager.first();
    // The core may still refuse a value (e.g. a rule the page does not know): show it at the field.
    if (!ok && pager.error.value?.kind === 'invalid_input') {
      const error = pager.error.value;
      const { fields, general } = splitError(error, FILTER_FIELD_MAP);
      refuse(fields);
      if (general) pager.error.value = error;
    }
    return ok;
  }

  /** A refused filter shows its errors and no rows: the previous filter's rows would pass for its answer. */
  function refuse(errors: FieldErrors): void {
    pager.reset();
    applied.value = null;
    selected.value = 0;
    fieldErrors.value = errors;
    refused.value = true;
  }

  function resetForm(network = form.value.network): void {
    form.value = emptyFilterForm(network);
    fieldErrors.value = {};
    refused.value = false;
  }

  /**
   * The shown page read again. After a change of data source or network nothing of the old one stays
   * on screen: the form clears and the first page is read from the new source (once one was shown).
   */
  async function resync(): Promise<void> {
    const now = settings.currentSource;
    if (now === null || !settings.settings) return;
    const network = settings.settings.network;
    // A page read before the settings were known (the start) came from the current source, on its network.
    if (shownSource === null && (!applied.value || applied.value.network === network)) {
      if (applied.value) shownSource = now;
      return;
    }
    if (now !== shownSource) {
      const wasShown = applied.value !== null || refused.value;
      pager.reset();
      resetForm(network);
      shownSource = now;
      if (wasShown) await apply();
      return;
    }
    if (applied.value) await pager.refresh();
  }

  /** Clears the filter and shows the unfiltered first page again. */
  function reset(): Promise<boolean> {
    resetForm();
    return apply();
  }

  async function move(step: 1 | -1): Promise<void> {
    const ok = step === 1 ? await pager.next() : await pager.prev();
    if (ok) selected.value = 0;
  }

  let cancelTimer: (() => void) | null = null;
  function schedule(): void {
    cancelTimer?.();
    cancelTimer = null;
    if (!autoRefresh.value) return;
    cancelTimer = clock().setTimer(() => {
      cancelTimer = null;
      if (!autoRefresh.value) return;
      // A refused filter has nothing to refresh (an unfiltered page would pass for its answer).
      if (refused.value) return schedule();
      // Only the first page is "live"; deeper pages would shift under the reader. The pager reports its own errors (never rejects).
      if (pager.index.value === 0 && !pager.loading.value) void pager.refresh().then(schedule);
      else schedule();
    }, AUTO_REFRESH_MS);
  }
  function setAutoRefresh(on: boolean): void {
    autoRefresh.value = on;
    schedule();
  }

  /**
   * A batch that changed messages on the shown page redraws those rows from the core's cache (it has
   * just read them): no Data API request, so redrawing never spends the user's request budget.
   */
  async function redrawChanged(e: TransitionsEvent): Promise<void> {
    const shown = new Set(messages.value.map((m) => m.messageId));
    const ids = [...new Set(e.transitions.map((t) => t.messageId).filter((id) => shown.has(id)))];
    if (!ids.length) return;
    const cached = await readCachedMessages(ids);
    // Applied to whatever page is shown by then: only rows with these IDs change, and only to newer copies.
    pager.patch((page) => mergeCachedMessages(page, cached, false));
  }
  useMonitorEvents({ transitions: (e) => void redrawChanged(e) });

  function select(delta: number): void {
    const n = messages.value.length;
    if (!n) return;
    selected.value = Math.min(n - 1, Math.max(0, selected.value + delta));
  }

  return {
    form,
    applied,
    fieldErrors,
    refused,
    autoRefresh,
    selected,
    messages,
    page: pager.page,
    pageIndex: pager.index,
    loading: pager.loading,
    error: pager.error,
    hasNext: pager.hasNext,
    hasPrev: pager.hasPrev,
    apply,
    resetForm,
    reset,
    resync,
    next: () => move(1),
    prev: () => move(-1),
    refresh: pager.refresh,
    setAutoRefresh,
    select,
  };
});
