import type { Db } from './database';

/** The label a person gave a watcher: an address's label, or a feed's name ('' when none). */
export class WatchLabels {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      feedName: db.prepare<[string], string>('SELECT name FROM feeds WHERE id = ?').pluck(),
      addressLabel: db.prepare<[string], string>('SELECT label FROM watches WHERE address = ?').pluck(),
    };
  }

  of(watcherKey: string): string {
    if (watcherKey.startsWith('feed:')) return this.stmts.feedName.get(watcherKey.slice(5)) ?? '';
    return this.stmts.addressLabel.get(watcherKey) ?? '';
  }
}
