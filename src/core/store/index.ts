import { openDatabase, type Db } from './database';
import { MessageCache } from './message-cache';
import { OutboxStore } from './outbox-store';
import { PollStateStore } from './poll-state-store';
import { SettingsStore } from './settings-store';
import { WatchStore } from './watch-store';

export { openDatabase, DATABASE_FILE, type Db } from './database';
export * from './message-cache';
export * from './outbox-store';
export * from './settings-store';
export * from './watch-store';
export * from './poll-state-store';
export { computeStats, bucketSizeFor } from './stats';

/** Every store over one database connection. */
export interface Store {
  db: Db;
  settings: SettingsStore;
  watches: WatchStore;
  messages: MessageCache;
  outbox: OutboxStore;
  pollState: PollStateStore;
  close(): void;
}

export function openStore(dataDir: string): Store {
  const db = openDatabase(dataDir);
  return {
    db,
    settings: new SettingsStore(db),
    watches: new WatchStore(db),
    messages: new MessageCache(db),
    outbox: new OutboxStore(db),
    pollState: new PollStateStore(db),
    close: () => db.close(),
  };
}
