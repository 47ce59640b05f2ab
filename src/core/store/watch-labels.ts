import type { Db } from './database';
import { watcherRef } from './watcher-key';

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
    const ref = watcherRef(watcherKey);
    return (ref.kind === 'feed' ? this.stmts.feedName.get(ref.feedId) : this.stmts.addressLabel.get(ref.address)) ?? '';
  }
}
