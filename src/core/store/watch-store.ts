import { randomUUID } from 'node:crypto';
import type { FeedFilter, NotifyPrefs, SavedFeed, WatchedAddress } from '../../shared/contract';
import type { Network } from '../../shared/validators';
import type { SourceKey } from '../../shared/sources';
import type { Db } from './database';
import { feedKey, isRouteKey, routeIdOf, routeKey, watcherRef } from './watcher-key';
import { routeWatcherInfo, type RouteWatcherRow } from './route-watcher';
import type { FeedInfo, WatcherInfo } from './watcher-info';

// The engine and the poller read these types here, beside the store that makes them.
export type { FeedInfo, WatcherInfo } from './watcher-info';

interface WatchRow {
  address: string;
  label: string;
  network: string;
  notify: string;
  created_at: number;
  last_viewed_at: number | null;
  baseline_done: number;
  baseline_floor: number | null;
  history_cut_at: number | null;
  unread?: number;
}

interface FeedRow {
  id: string;
  name: string;
  network: string;
  filter: string;
  notify: string;
  created_at: number;
  baseline_done: number;
  baseline_floor: number | null;
  history_cut_at: number | null;
}

export { feedKey } from './watcher-key';

/** What changed in the watch store: who is watched, or a watcher's baseline finished. */
type WatchChange = 'watchlist' | 'baseline';

/**
 * A watch row with its unread count: messages found after the last visit, baseline history not counted,
 * the current data source's only (the one bound parameter): another source's are not news of this one.
 */
const WATCH_WITH_UNREAD = `SELECT w.*, (SELECT COUNT(*) FROM message_watchers mw JOIN messages m ON m.message_id = mw.message_id
  WHERE mw.watcher = w.address AND mw.baseline = 0 AND mw.added_at > COALESCE(w.last_viewed_at, 0) AND m.source = ?) AS unread FROM watches w`;

/** Watchlist and saved feeds. Addresses are stored EIP-55 checksummed (as validated at the boundary). */
export class WatchStore {
  private readonly stmts;
  private readonly listeners = new Set<(what: WatchChange) => void>();

  constructor(
    private readonly db: Db,
    /** The current data source's key. */
    private readonly source: () => SourceKey,
  ) {
    this.stmts = {
      listWatches: db.prepare<[string], WatchRow>(`${WATCH_WITH_UNREAD} ORDER BY w.created_at, w.address`),
      getWatch: db.prepare<[string, string], WatchRow>(`${WATCH_WITH_UNREAD} WHERE address = ?`),
      addWatch: db.prepare('INSERT OR IGNORE INTO watches (address, label, network, notify, created_at) VALUES (?, ?, ?, ?, ?)'),
      setLabel: db.prepare('UPDATE watches SET label = ? WHERE address = ?'),
      setNotify: db.prepare('UPDATE watches SET notify = ? WHERE address = ?'),
      deleteLinks: db.prepare('DELETE FROM message_watchers WHERE watcher = ?'),
      // Messages nobody watches any more are not re-checked.
      untrackOrphans: db.prepare('UPDATE messages SET tracked = 0 WHERE tracked = 1 AND message_id NOT IN (SELECT message_id FROM message_watchers)'),
      deleteWatch: db.prepare('DELETE FROM watches WHERE address = ?'),
      markViewed: db.prepare('UPDATE watches SET last_viewed_at = ? WHERE address = ?'),
      finishFeedBaseline: db.prepare('UPDATE feeds SET baseline_done = 1, baseline_floor = ?, history_cut_at = ? WHERE id = ?'),
      finishWatchBaseline: db.prepare('UPDATE watches SET baseline_done = 1, baseline_floor = ?, history_cut_at = ? WHERE address = ?'),
      finishRouteBaseline: db.prepare('UPDATE route_watches SET baseline_done = 1, baseline_floor = ? WHERE id = ?'),
      listFeeds: db.prepare<[], FeedRow>('SELECT * FROM feeds ORDER BY created_at, id'),
      addFeed: db.prepare('INSERT INTO feeds (id, name, network, filter, notify, created_at) VALUES (?, ?, ?, ?, ?, ?)'),
      deleteFeed: db.prepare('DELETE FROM feeds WHERE id = ?'),
      allWatches: db.prepare<[], WatchRow>('SELECT * FROM watches'),
      allFeeds: db.prepare<[], FeedRow>('SELECT * FROM feeds'),
      allRoutes: db.prepare<[], RouteWatcherRow>(
        'SELECT id, network, source_chain, destination_chain, baseline_done, baseline_floor, created_at, history_from FROM route_watches',
      ),
    };
  }

  /**
   * Calls `listener` after every change of who is watched (`watchlist`) or a watcher's baseline finishing
   * (`baseline`: it is live from then on); the watcher index follows both.
   */
  onChange(listener: (what: WatchChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(what: WatchChange = 'watchlist'): void {
    for (const l of this.listeners) l(what);
  }

  listWatches(): WatchedAddress[] {
    return this.stmts.listWatches.all(this.source()).map(toWatch);
  }

  getWatch(address: string): WatchedAddress | null {
    const row = this.stmts.getWatch.get(this.source(), address);
    return row ? toWatch(row) : null;
  }

  addWatch(w: { address: string; label: string; network: Network; notify: NotifyPrefs; createdAt: number }): boolean {
    const added = this.stmts.addWatch.run(w.address, w.label, w.network, JSON.stringify(w.notify), w.createdAt).changes > 0;
    if (added) this.changed();
    return added;
  }

  updateWatch(address: string, patch: { label?: string; notify?: NotifyPrefs }): void {
    if (patch.label !== undefined) this.stmts.setLabel.run(patch.label, address);
    if (patch.notify !== undefined) this.stmts.setNotify.run(JSON.stringify(patch.notify), address);
    this.changed();
  }

  removeWatch(address: string): boolean {
    const removed = this.db.transaction(() => {
      this.stmts.deleteLinks.run(address);
      this.stmts.untrackOrphans.run();
      return this.stmts.deleteWatch.run(address).changes > 0;
    })();
    if (removed) this.changed();
    return removed;
  }

  /**
   * A watched route was added or removed (route_watches, written by RelayerWatches): a removed one's
   * message links go like a removed feed's, and the index rebuilds either way.
   */
  routesChanged(removedId?: string): void {
    if (removedId !== undefined)
      this.db.transaction(() => {
        this.stmts.deleteLinks.run(routeKey(removedId));
        this.stmts.untrackOrphans.run();
      })();
    this.changed();
  }

  markViewed(address: string, at: number): void {
    this.stmts.markViewed.run(at, address);
  }

  /**
   * Records that the silent baseline of a watcher is complete; `cutAt` (s): where it stopped at its page
   * cap with open history maybe below (null: it read all it meant to). A route shows its own reach.
   */
  finishBaseline(key: string, floor: number | null, cutAt: number | null = null): void {
    const ref = watcherRef(key);
    if (isRouteKey(key)) this.stmts.finishRouteBaseline.run(floor, routeIdOf(key));
    else if (ref.kind === 'feed') this.stmts.finishFeedBaseline.run(floor, cutAt, ref.feedId);
    else this.stmts.finishWatchBaseline.run(floor, cutAt, ref.address);
    this.changed('baseline');
  }

  listFeeds(): SavedFeed[] {
    return this.stmts.listFeeds.all().map(toFeed);
  }

  addFeed(f: { name: string; network: Network; filter: FeedFilter; notify: NotifyPrefs; createdAt: number }): SavedFeed {
    const id = randomUUID().slice(0, 8);
    this.stmts.addFeed.run(id, f.name, f.network, JSON.stringify(f.filter), JSON.stringify(f.notify), f.createdAt);
    this.changed();
    return { id, name: f.name, network: f.network, filter: f.filter, notify: f.notify, createdAt: f.createdAt, baselinePending: true, historyCutAt: null };
  }

  removeFeed(id: string): boolean {
    const removed = this.db.transaction(() => {
      this.stmts.deleteLinks.run(feedKey(id));
      this.stmts.untrackOrphans.run();
      return this.stmts.deleteFeed.run(id).changes > 0;
    })();
    if (removed) this.changed();
    return removed;
  }

  /** Every watcher with its baseline state, for the engine's index. A watched route is read like a feed on its two chains. */
  watcherInfos(): { addresses: WatcherInfo[]; feeds: FeedInfo[] } {
    const addresses = this.stmts.allWatches.all().map(toWatcherInfo);
    const feeds = this.stmts.allFeeds
      .all()
      .map((r) => ({ ...toWatcherInfo({ ...r, address: feedKey(r.id) }), id: r.id, filter: JSON.parse(r.filter) as FeedFilter }));
    return { addresses, feeds: [...feeds, ...this.stmts.allRoutes.all().map(routeWatcherInfo)] };
  }
}

function toWatcherInfo(r: Pick<WatchRow, 'address' | 'network' | 'notify' | 'baseline_done' | 'baseline_floor' | 'created_at'>): WatcherInfo {
  return {
    key: r.address,
    network: r.network as Network,
    notify: JSON.parse(r.notify) as NotifyPrefs,
    baselineDone: r.baseline_done === 1,
    baselineFloor: r.baseline_floor,
    since: r.created_at,
  };
}

/** What a watched address and a saved feed both say of themselves, from the columns their tables share. */
const listedFields = (r: Pick<WatchRow, 'network' | 'notify' | 'created_at' | 'baseline_done' | 'history_cut_at'>) => ({
  network: r.network as Network,
  notify: JSON.parse(r.notify) as NotifyPrefs,
  createdAt: r.created_at,
  baselinePending: r.baseline_done === 0,
  historyCutAt: r.history_cut_at === null ? null : r.history_cut_at * 1000,
});

function toWatch(r: WatchRow): WatchedAddress {
  return { address: r.address, label: r.label, ...listedFields(r), lastViewedAt: r.last_viewed_at, unread: r.unread ?? 0 };
}

function toFeed(r: FeedRow): SavedFeed {
  return { id: r.id, name: r.name, filter: JSON.parse(r.filter) as FeedFilter, ...listedFields(r) };
}
