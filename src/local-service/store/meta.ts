import { randomBytes } from 'node:crypto';
import type { Database } from '../../sqlite';

/** Small named values kept in the store file (`meta`): the schema version, per-database secrets. */
export class Meta {
  private readonly stmts;

  constructor(db: Database) {
    this.stmts = {
      get: db.prepare<[string], string>('SELECT value FROM meta WHERE key = ?').pluck(),
      set: db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value'),
    };
  }

  get(key: string): string | undefined {
    return this.stmts.get.get(key);
  }

  set(key: string, value: string): void {
    this.stmts.set.run(key, value);
  }

  /** A per-database secret (for signing page tokens): created once, kept across restarts. */
  secret(name: string): Buffer {
    const existing = this.get(name);
    if (existing) return Buffer.from(existing, 'hex');
    const fresh = randomBytes(32);
    this.set(name, fresh.toString('hex'));
    return fresh;
  }
}
