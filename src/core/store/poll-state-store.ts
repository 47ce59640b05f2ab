import type { Db } from './database';

/** Small JSON values the poller keeps across restarts (head cursors, rate estimates). */
export class PollStateStore {
  constructor(private readonly db: Db) {}

  get<T>(key: string): T | undefined {
    const row = this.db.prepare('SELECT json FROM poll_state WHERE key = ?').get(key) as { json: string } | undefined;
    return row ? (JSON.parse(row.json) as T) : undefined;
  }

  set(key: string, value: unknown): void {
    this.db.prepare('INSERT INTO poll_state (key, json) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET json = excluded.json').run(key, JSON.stringify(value));
  }
}
