import type { Db } from './database';

/** The label a person gave a watcher: an address's label, or a feed's name ('' when none). */
export class WatchLabels {
  constructor(private readonly db: Db) {}

  of(watcherKey: string): string {
    if (watcherKey.startsWith('feed:')) {
      return (this.db.prepare('SELECT name FROM feeds WHERE id = ?').pluck().get(watcherKey.slice(5)) as string | undefined) ?? '';
    }
    return (this.db.prepare('SELECT label FROM watches WHERE address = ?').pluck().get(watcherKey) as string | undefined) ?? '';
  }
}
