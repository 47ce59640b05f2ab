import type { Db } from './database';

/** Small JSON values the poller keeps across restarts (head cursors, rate estimates). */
export class PollStateStore {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      get: db.prepare<[string], string>('SELECT json FROM poll_state WHERE key = ?').pluck(),
      set: db.prepare('INSERT INTO poll_state (key, json) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET json = excluded.json'),
    };
  }

  get<T>(key: string): T | undefined {
    const json = this.stmts.get.get(key);
    return json === undefined ? undefined : (JSON.parse(json) as T);
  }

  set(key: string, value: unknown): void {
    this.stmts.set.run(key, JSON.stringify(value));
  }
}
