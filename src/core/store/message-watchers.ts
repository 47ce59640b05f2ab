import type { Db } from './database';
import { isAddressKey } from './watcher-key';

/** One row of `message_watchers`: a watched address or feed (`feed:<id>`) a message belongs to. */
interface MessageWatcherRow {
  watcher: string;
  baseline: number;
}

export interface MessageWatcher {
  watcher: string;
  /** Found while the watcher's silent baseline was taken (history, not news). */
  baseline: boolean;
}

const toMessageWatcher = (r: MessageWatcherRow): MessageWatcher => ({ watcher: r.watcher, baseline: r.baseline === 1 });

/** Which watchers each cached message belongs to (`message_watchers`). */
export class MessageWatchers {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      add: db.prepare('INSERT OR IGNORE INTO message_watchers (message_id, watcher, added_at, baseline) VALUES (?, ?, ?, ?)'),
      of: db.prepare<[string], MessageWatcherRow>('SELECT watcher, baseline FROM message_watchers WHERE message_id = ?'),
      countSince: db
        .prepare<[string, number], number>(
          `SELECT COUNT(*) AS n FROM message_watchers mw JOIN messages m ON m.message_id = mw.message_id
           WHERE mw.watcher = ? AND COALESCE(m.source_ts, m.destination_ts) >= ?`,
        )
        .pluck(),
    };
  }

  /** Links a message to a watcher once; a repeated link keeps the first one's time and baseline flag. */
  add(messageId: string, watcher: string, at: number, baseline: boolean): void {
    this.stmts.add.run(messageId, watcher, at, baseline ? 1 : 0);
  }

  of(messageId: string): MessageWatcher[] {
    return this.stmts.of.all(messageId).map(toMessageWatcher);
  }

  /** The watched addresses of a message (feeds and routes left out: they are not addresses). */
  addressesOf(messageId: string): string[] {
    return this.of(messageId)
      .map((w) => w.watcher)
      .filter(isAddressKey);
  }

  /** Cached messages of a watcher at or after a sort timestamp: how deep its address listing must page. */
  countSince(watcher: string, ts: number): number {
    return this.stmts.countSince.get(watcher, ts) ?? 0;
  }
}
