import type { Statement } from '../../sqlite';
import type { Db } from './database';

/**
 * Statements for queries assembled from optional filters: each distinct SQL text is prepared once and
 * reused. Callers keep the number of texts small (bind values, never splice them into the SQL).
 */
export class StatementCache {
  private readonly statements = new Map<string, Statement<unknown[]>>();

  constructor(private readonly db: Db) {}

  get(sql: string): Statement<unknown[]> {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare<unknown[]>(sql);
      this.statements.set(sql, st);
    }
    return st;
  }
}
