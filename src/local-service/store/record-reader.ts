/** Reads stored records: one by message ID, or a page's records by position (as strings, or joined by SQLite). */
import type { Database } from '../../sqlite';

/** Records per piece: a piece stays a small string that dies young, not a large object or an external buffer. */
const PIECE_RECORDS = 16;
/**
 * The records at the given positions (a JSON array, newest first), joined with commas into one string.
 * The subquery yields them in that order without a sort step; SQLite does not promise that
 * group_concat keeps it, so the positions are concatenated alongside (same rows, same order) and
 * checked, with an aggregate ORDER BY (which sorts the whole records, about twice the cost) as fallback.
 */
const PAGE_JSON_SQL =
  "SELECT group_concat(pos) AS positions, group_concat(raw, ',') AS json FROM (SELECT pos, raw FROM messages WHERE pos IN (SELECT value FROM json_each(?)) ORDER BY pos DESC)";
const PAGE_JSON_SORTED_SQL = "SELECT group_concat(raw, ',' ORDER BY pos DESC) FROM messages WHERE pos IN (SELECT value FROM json_each(?))";

export class RecordReader {
  private readonly stmts;

  constructor(private readonly db: Database) {
    this.stmts = {
      rawAt: db.prepare<[number], string>('SELECT raw FROM messages WHERE pos = ?').pluck(),
      rawById: db.prepare<[string], string>('SELECT raw FROM messages WHERE message_id = ?').pluck(),
      // SQLite joins the records of a page (16 per call): no JS string per record, no join in JS.
      jsonAt: db.prepare<[string], { positions: string | null; json: string | null }>(PAGE_JSON_SQL),
      jsonAtSorted: db.prepare<[string], string | null>(PAGE_JSON_SORTED_SQL).pluck(),
    };
  }

  byId(messageId: string): Record<string, unknown> | undefined {
    const raw = this.stmts.rawById.get(messageId);
    return raw === undefined ? undefined : (JSON.parse(raw) as Record<string, unknown>);
  }

  /** The raw record JSON at each position. */
  rawAt(positions: readonly number[]): string[] {
    return positions.map((p) => this.stmts.rawAt.get(p)!);
  }

  /** The records at these positions, in order, comma-joined by SQLite in pieces of PIECE_RECORDS. */
  joined(positions: readonly number[]): string[] {
    const pieces: string[] = [];
    for (let i = 0; i < positions.length; i += PIECE_RECORDS) pieces.push(this.joinedPiece(positions.slice(i, i + PIECE_RECORDS)));
    return pieces;
  }

  /** The query plan SQLite uses to read a page's records by position (tests check it). */
  explainJoined(sorted = false): string[] {
    return this.db
      .prepare<[string], { detail: string }>(`EXPLAIN QUERY PLAN ${sorted ? PAGE_JSON_SORTED_SQL : PAGE_JSON_SQL}`)
      .all('[1,2]')
      .map((r) => r.detail);
  }

  private joinedPiece(positions: readonly number[]): string {
    const list = JSON.stringify(positions);
    const row = this.stmts.jsonAt.get(list);
    if (row?.json && row.positions === positions.join(',')) return row.json;
    return this.stmts.jsonAtSorted.get(list) ?? '';
  }
}
