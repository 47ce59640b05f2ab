import { AlertEntries } from './alert-entries';
import { CacheSearch } from './cache-search';
import { CachedMessages } from './cached-messages';
import { openDatabase, type Db } from './database';
import { MessageWatchers } from './message-watchers';
import { OutboxStore } from './outbox-store';
import { PollStateStore } from './poll-state-store';
import { RelayerEpisodes } from './relayer-episodes';
import { RelayerFuelStore } from './relayer-fuel';
import { RelayerMetricsUrls } from './relayer-metrics-urls';
import { RelayerWatches } from './relayer-watches';
import { Pruner } from './pruning';
import { SearchIndex } from './search-index';
import { SettingsStore } from './settings-store';
import { TransitionLog } from './transition-log';
import { WatchStore } from './watch-store';
import { adoptUnlabelledRows } from './unlabelled-rows';
import type { SourceKey } from '../../shared/sources';

export { openDatabase, DATABASE_FILE, type Db } from './database';
export type { MessageRow, MessageState, TrackedMessage } from './messages-table';
export { searchTextOf } from './search-index';
export { SEARCH_COUNT_CAP, type CacheQuery } from './cache-search';
export type { TransitionQuery } from './transition-log';
export type { MessageWatcher, MessageWatchers } from './message-watchers';
export type { CachedMessages } from './cached-messages';
export type { CacheSearch } from './cache-search';
export type { TransitionLog } from './transition-log';
export type { Pruner } from './pruning';
export * from './outbox-store';
export * from './settings-store';
export * from './watch-store';
export * from './poll-state-store';
export type { RelayerWatches } from './relayer-watches';
export type { RelayerEpisodes, OpenEpisode, EpisodeKind, EpisodeStart } from './relayer-episodes';
export type { AlertEntries } from './alert-entries';
export type { RelayerFuelStore, FuelRead } from './relayer-fuel';
export { computeStats, bucketSizeFor } from './stats';

/** Every store over one database connection. */
export interface Store {
  db: Db;
  settings: SettingsStore;
  /** The current data source's key: what figures written now carry, and what views and alert rules count. */
  source(): SourceKey;
  /** The watchlist and saved feeds. */
  watches: WatchStore;
  /** The cached record and tracking state of every observed message. */
  messages: CachedMessages;
  /** Which watchers each cached message belongs to. */
  messageWatchers: MessageWatchers;
  transitions: TransitionLog;
  search: CacheSearch;
  pruner: Pruner;
  outbox: OutboxStore;
  pollState: PollStateStore;
  /** Watched relayers and routes. */
  relayerWatches: RelayerWatches;
  /** Alert episodes (relayer silent, route backlog, fuel, failed executions), listed in Activity and announced through the outbox. */
  relayerEpisodes: RelayerEpisodes;
  /** Each fire and resolve of an alert episode, as Activity lists it. */
  alertEntries: AlertEntries;
  /** The last gas-balance read of each watched relayer's wallet per chain. */
  relayerFuel: RelayerFuelStore;
  /** Where each watched relayer's own metrics are read. */
  relayerMetricsUrls: RelayerMetricsUrls;
  /** Runs `fn` in one transaction (a savepoint inside another). */
  transaction<T>(fn: () => T): T;
  close(): void;
}

export function openStore(dataDir: string): Store {
  const db = openDatabase(dataDir);
  const index = new SearchIndex(db);
  const messageWatchers = new MessageWatchers(db);
  const outbox = new OutboxStore(db);
  const settings = new SettingsStore(db);
  const source = (): SourceKey => settings.sourceKey();
  const watches = new WatchStore(db, source);
  const alertEntries = new AlertEntries(db);
  const pollState = new PollStateStore(db);
  adoptUnlabelledRows(db, pollState, source());
  return {
    db,
    settings,
    source,
    watches,
    messages: new CachedMessages(db, index, messageWatchers, source),
    messageWatchers,
    transitions: new TransitionLog(db),
    search: new CacheSearch(db),
    pruner: new Pruner(db, index),
    outbox,
    pollState,
    relayerWatches: new RelayerWatches(db, (removedId) => watches.routesChanged(removedId)),
    relayerEpisodes: new RelayerEpisodes(db, outbox, alertEntries, source),
    alertEntries,
    relayerFuel: new RelayerFuelStore(db, source),
    relayerMetricsUrls: new RelayerMetricsUrls(db),
    transaction: (fn) => db.transaction(fn)(),
    close: () => db.close(),
  };
}
