/** The contract's calls for the watchlist: watched addresses and saved feeds. */
import { DEFAULT_NOTIFY, type MonitorEvent, type MonitorHandlers, type NotifyPrefs, type Settings } from '../../shared/contract';
import type { Clock } from '../../shared/clock';
import { MonitorError } from '../../shared/errors';
import type { Poller } from '../poller/poller';
import type { Store } from '../store';
import { forgetWatcherData } from '../store/forget-watch';

/** What the watchlist handlers (and the watchlist import) use, and all they can reach. */
export interface WatchlistNeeds {
  store: Pick<Store, 'watches' | 'db'>;
  settings(): Settings;
  clock: Clock;
  emit(e: MonitorEvent): void;
  /** A cycle at once after an addition: the silent baseline is taken now rather than one interval later. */
  poller: Pick<Poller, 'runCycle'>;
}

type WatchlistMethods = 'listWatches' | 'addWatch' | 'updateWatch' | 'removeWatch' | 'markWatchViewed' | 'listFeeds' | 'addFeed' | 'removeFeed';

function notFound(message: string, field?: string): MonitorError {
  return new MonitorError({ kind: 'not_found', message, ...(field ? { field } : {}) });
}

/** Default notification choices for a new watch or feed: the global per-kind settings. */
export function defaultNotify(s: Settings, given?: Partial<NotifyPrefs>): NotifyPrefs {
  const n = s.notifications;
  return { ...DEFAULT_NOTIFY, new: n.new, left_pending: n.left_pending, receipt_delivered: n.receipt_delivered, stuck: n.stuck, ...(given ?? {}) };
}

export function createWatchlistHandlers(ctx: WatchlistNeeds): Pick<MonitorHandlers, WatchlistMethods> {
  const watchOrThrow = (address: string) => {
    const w = ctx.store.watches.getWatch(address);
    if (!w) throw notFound(`${address} is not on the watchlist.`, 'address');
    return w;
  };
  return {
    listWatches: () => ctx.store.watches.listWatches(),
    addWatch: (input) => {
      const s = ctx.settings();
      const added = ctx.store.watches.addWatch({
        address: input.address,
        label: input.label?.trim() ?? '',
        network: input.network ?? s.network,
        notify: defaultNotify(s, input.notify),
        createdAt: ctx.clock.now(),
      });
      if (!added) throw new MonitorError({ kind: 'invalid_input', field: 'address', message: `${input.address} is already on the watchlist.` });
      ctx.emit({ type: 'watchlist-changed' });
      void ctx.poller.runCycle(); // takes the silent baseline now rather than one interval later
      return watchOrThrow(input.address);
    },
    updateWatch: (input) => {
      const w = watchOrThrow(input.address);
      ctx.store.watches.updateWatch(input.address, {
        ...(input.label !== undefined ? { label: input.label.trim() } : {}),
        ...(input.notify ? { notify: { ...w.notify, ...input.notify } } : {}),
      });
      ctx.emit({ type: 'watchlist-changed' });
      return watchOrThrow(input.address);
    },
    removeWatch: ({ address, forget }) => {
      if (forget && ctx.store.watches.getWatch(address)) forgetWatcherData(ctx.store.db, address);
      if (!ctx.store.watches.removeWatch(address)) throw notFound(`${address} is not on the watchlist.`, 'address');
      ctx.emit({ type: 'watchlist-changed' });
    },
    markWatchViewed: ({ address }) => {
      watchOrThrow(address);
      ctx.store.watches.markViewed(address, ctx.clock.now());
      ctx.emit({ type: 'watchlist-changed' });
      return watchOrThrow(address);
    },

    listFeeds: () => ctx.store.watches.listFeeds(),
    addFeed: (input) => {
      const s = ctx.settings();
      const feed = ctx.store.watches.addFeed({
        name: input.name,
        network: input.network ?? s.network,
        filter: input.filter,
        notify: defaultNotify(s, input.notify),
        createdAt: ctx.clock.now(),
      });
      ctx.emit({ type: 'watchlist-changed' });
      void ctx.poller.runCycle();
      return feed;
    },
    removeFeed: ({ id }) => {
      if (!ctx.store.watches.removeFeed(id)) throw notFound(`There is no saved feed with ID ${id}.`, 'id');
      ctx.emit({ type: 'watchlist-changed' });
    },
  };
}
