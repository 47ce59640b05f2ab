import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { parseMonitorInput, watchedAddressesOf, type MonitorInput, type SavedFeed, type TransitionsEvent, type WatchedAddress } from '../../../shared/contract';
import { toErrorInfo, type ErrorInfo } from '../../../shared/errors';
import { monitor, useMonitorEvents } from '../client';
import { lastDistinct, mergeCachedMessages, readCachedMessages } from '../logic/cached-page';
import { splitError, type FieldErrors } from '../logic/field-errors';
import { coalesce } from '../logic/coalesce';
import { createPager } from '../logic/pager';
import { useSettingsStore } from './settings';

type WatchInput = NonNullable<MonitorInput<'addWatch'>>;
type WatchPatch = NonNullable<MonitorInput<'updateWatch'>>;
type FeedInput = NonNullable<MonitorInput<'addFeed'>>;

/**
 * An open address's first page takes its new messages from the core's cache, so it grows; past this
 * many rows it is read from the data source once more (a page that has grown this much is due anyway).
 */
const FIRST_PAGE_MAX_ROWS = 200;

/** Maps contract paths of feed inputs (filter.from …) to the feed form's fields. */
const FEED_FIELDS: Record<string, string> = {
  'filter.sourceBlockchainId': 'source',
  'filter.destinationBlockchainId': 'destination',
  'filter.blockchainId': 'either',
  'filter.from': 'from',
  'filter.to': 'to',
  filter: 'filter',
  name: 'name',
};

/** The Watchlist room: watched addresses with unread counts, each one's own message list, saved feeds. */
export const useWatchlistStore = defineStore('watchlist', () => {
  const watches = ref<WatchedAddress[]>([]);
  const feeds = ref<SavedFeed[]>([]);
  const loading = ref(false);
  const loaded = ref(false);
  const error = ref<ErrorInfo | null>(null);
  const addErrors = ref<FieldErrors>({});
  const feedErrors = ref<FieldErrors>({});
  const busy = ref(false);
  const selectedAddress = ref<string | null>(null);
  const settings = useSettingsStore();
  /** The data source (and network) the open address's page was read from. */
  let openedFrom: string | null = null;

  const selectedWatch = computed(() => watches.value.find((w) => w.address === selectedAddress.value) ?? null);
  const totalUnread = computed(() => watches.value.reduce((n, w) => n + w.unread, 0));

  const pager = createPager((pageToken) => {
    const w = selectedWatch.value;
    if (!w) return Promise.reject(new Error('No address selected.'));
    return monitor().browseAddressMessages({ address: w.address, network: w.network, ...(pageToken ? { pageToken } : {}) });
  });

  /** Reads the whole watchlist: on start and when the watchlist itself changed (one read at a time). */
  const load = coalesce(readAll);
  async function readAll(): Promise<void> {
    loading.value = true;
    try {
      const [w, f] = await Promise.all([monitor().listWatches(), monitor().listFeeds()]);
      watches.value = w;
      feeds.value = f;
      loaded.value = true;
      error.value = null;
      if (selectedAddress.value && !w.some((x) => x.address === selectedAddress.value)) close();
    } catch (e) {
      error.value = toErrorInfo(e);
    } finally {
      loading.value = false;
    }
  }

  /** Runs a mutation; field errors land in `errs`, others in `error`. No request if local validation fails. */
  async function mutate<T>(validate: () => void, run: () => Promise<T>, errs: typeof addErrors | null, map: Record<string, string> = {}): Promise<T | null> {
    if (errs) errs.value = {};
    try {
      validate();
    } catch (e) {
      const { fields, general } = splitError(e, map);
      if (errs) errs.value = fields;
      if (general || !errs) error.value = general ?? toErrorInfo(e);
      return null;
    }
    busy.value = true;
    try {
      const r = await run();
      error.value = null;
      return r;
    } catch (e) {
      const { fields, general } = splitError(e, map);
      if (errs) errs.value = fields;
      error.value = general ?? (errs ? null : toErrorInfo(e));
      return null;
    } finally {
      busy.value = false;
    }
  }

  async function add(input: WatchInput): Promise<WatchedAddress | null> {
    const w = await mutate(
      () => parseMonitorInput('addWatch', input),
      () => monitor().addWatch(input),
      addErrors,
    );
    if (w) upsert(w);
    return w;
  }

  async function update(patch: WatchPatch): Promise<WatchedAddress | null> {
    const w = await mutate(
      () => parseMonitorInput('updateWatch', patch),
      () => monitor().updateWatch(patch),
      null,
    );
    if (w) upsert(w);
    return w;
  }

  async function remove(address: string, opts: { forget?: boolean } = {}): Promise<boolean> {
    const input = { address, ...(opts.forget ? { forget: true } : {}) };
    const r = await mutate(
      () => parseMonitorInput('removeWatch', input),
      async () => {
        await monitor().removeWatch(input);
        return true;
      },
      null,
    );
    if (r) {
      watches.value = watches.value.filter((w) => w.address !== address);
      if (selectedAddress.value === address) close();
    }
    return r === true;
  }

  function upsert(w: WatchedAddress) {
    const i = watches.value.findIndex((x) => x.address === w.address);
    if (i >= 0) watches.value.splice(i, 1, w);
    else watches.value.push(w);
  }

  /** Opens an address's own message list and marks it viewed (its unread count resets). */
  async function open(address: string): Promise<void> {
    selectedAddress.value = address;
    openedFrom = settings.currentSource;
    pager.reset();
    const [, viewed] = await Promise.all([
      pager.first(),
      monitor()
        .markWatchViewed({ address })
        .catch((e: unknown) => {
          error.value = toErrorInfo(e);
          return null;
        }),
    ]);
    if (viewed) upsert(viewed);
  }

  function close(): void {
    selectedAddress.value = null;
    pager.reset();
  }

  async function addFeed(input: FeedInput): Promise<SavedFeed | null> {
    const f = await mutate(
      () => parseMonitorInput('addFeed', input),
      () => monitor().addFeed(input),
      feedErrors,
      FEED_FIELDS,
    );
    if (f) feeds.value = [...feeds.value.filter((x) => x.id !== f.id), f];
    return f;
  }

  async function removeFeed(id: string): Promise<boolean> {
    const r = await mutate(
      () => parseMonitorInput('removeFeed', { id }),
      async () => {
        await monitor().removeFeed({ id });
        return true;
      },
      null,
    );
    if (r) feeds.value = feeds.value.filter((f) => f.id !== id);
    return r === true;
  }

  /** The batch carries the rows it changed (unread counts): applied in place, no list read. */
  function applyBatch(e: TransitionsEvent): void {
    for (const w of e.watches) if (watches.value.some((x) => x.address === w.address)) upsert(w);
    void redrawOpenAddress(e); // never rejects: a failed cache read leaves the page as it is
  }

  /**
   * The open address's page redraws from the core's cache (it has just read these messages), with no
   * Data API request: changed rows in place, and on the first page (newest first) its new messages.
   */
  async function redrawOpenAddress(e: TransitionsEvent): Promise<void> {
    const open = selectedAddress.value;
    const page = pager.page.value;
    if (!open || !page) return;
    const first = pager.index.value === 0;
    const shown = new Set(page.messages.map((m) => m.messageId));
    const touched = e.transitions.filter((t) => shown.has(t.messageId) || (first && watchedAddressesOf(t).includes(open))).map((t) => t.messageId);
    if (!touched.length) return;
    const cached = await readCachedMessages(lastDistinct(touched, FIRST_PAGE_MAX_ROWS));
    if (selectedAddress.value !== open) return;
    const current = pager.page.value;
    const merged = current && mergeCachedMessages(current, cached, pager.index.value === 0);
    if (merged && merged.messages.length > FIRST_PAGE_MAX_ROWS)
      void pager.refreshSoon(); // reports its own errors
    else pager.patch(() => merged);
  }

  /**
   * The watches (unread counts) and feeds read again, and the open address's page. A page read from
   * another data source is closed rather than shown as this one's.
   */
  async function resync(): Promise<void> {
    if (selectedAddress.value && openedFrom !== settings.currentSource) close();
    const reread = selectedAddress.value ? pager.refresh() : null;
    await Promise.all([load(), reread]);
  }

  useMonitorEvents({
    'watchlist-changed': () => void load(), // one read at a time; errors land in `error`
    transitions: applyBatch,
  });

  return {
    watches,
    feeds,
    loading,
    loaded,
    error,
    addErrors,
    feedErrors,
    busy,
    selectedAddress,
    selectedWatch,
    totalUnread,
    addressPage: pager.page,
    addressPageIndex: pager.index,
    addressLoading: pager.loading,
    addressError: pager.error,
    addressHasNext: pager.hasNext,
    addressHasPrev: pager.hasPrev,
    addressNext: pager.next,
    addressPrev: pager.prev,
    load,
    resync,
    add,
    update,
    remove,
    open,
    close,
    addFeed,
    removeFeed,
  };
});
