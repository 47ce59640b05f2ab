/**
 * The alert entries (`alert_entries`): one row per fire and per resolve of an alert episode, with the
 * words and severity said at that moment, kept like the transition log: Activity lists both, retention
 * prunes both. RelayerEpisodes writes each row in its episode's own transaction.
 */
import type { ActivityCursor, AlertEntry } from '../../shared/contract';
import type { Severity } from '../../shared/vocabulary';
import type { EpisodeKind } from '../../shared/vocabulary';
import type { Db } from './database';
import { StatementCache } from './statement-cache';

/** A row, its columns named as AlertEntry names them; '' where it concerns no chain or relayer. */
type AlertEntryRow = Omit<AlertEntry, 'kind' | 'sourceChain' | 'destinationChain' | 'relayer'> & {
  sourceChain: string;
  destinationChain: string;
  relayer: string;
};

/** What an entry says, before it has an ID. */
export type NewAlertEntry = Omit<AlertEntry, 'kind' | 'id'>;

const COLUMNS = `id, episode_id AS episodeId, kind AS episodeKind, phase, severity, title, body, subject, network,
  source_chain AS sourceChain, destination_chain AS destinationChain, relayer, at, source`;

const toEntry = ({ sourceChain, destinationChain, relayer, ...r }: AlertEntryRow): AlertEntry => ({
  kind: 'alert',
  ...r,
  ...(sourceChain ? { sourceChain } : {}),
  ...(destinationChain ? { destinationChain } : {}),
  ...(relayer ? { relayer } : {}),
});

export interface AlertEntryQuery {
  /** Absent: every kind. */
  kinds?: readonly EpisodeKind[];
  severities?: readonly Severity[];
  /** Entries below this place in the timeline (an alert sorts above a transition of the same moment). */
  before?: ActivityCursor;
  limit: number;
}

export class AlertEntries {
  private readonly stmts;
  private readonly queries: StatementCache;

  constructor(db: Db) {
    this.stmts = {
      // A resolve concerns the relayer its fire named.
      insert: db.prepare(
        `INSERT OR IGNORE INTO alert_entries (episode_id, phase, kind, severity, title, body, network, subject, source_chain, destination_chain, relayer, at, source)
         VALUES (@episodeId, @phase, @episodeKind, @severity, @title, @body, @network, @subject, @sourceChain, @destinationChain,
           coalesce(nullif(@relayer, ''), (SELECT relayer FROM alert_entries WHERE episode_id = @episodeId AND phase = 'fire'), ''), @at, @source)`,
      ),
      get: db.prepare<[number], AlertEntryRow>(`SELECT ${COLUMNS} FROM alert_entries WHERE id = ?`),
    };
    this.queries = new StatementCache(db);
  }

  /** Logs a fire or resolve (once per episode and phase); returns the entry as listed, or null when it was logged already. */
  add(e: NewAlertEntry): AlertEntry | null {
    const r = this.stmts.insert.run({
      ...e,
      sourceChain: e.sourceChain ?? '',
      destinationChain: e.destinationChain ?? '',
      relayer: e.relayer ?? '',
    });
    if (r.changes === 0) return null;
    const row = this.stmts.get.get(Number(r.lastInsertRowid));
    return row ? toEntry(row) : null;
  }

  /** Newest first, by time then ID. */
  list(q: AlertEntryQuery): AlertEntry[] {
    const where: string[] = [];
    const params: unknown[] = [];
    if (q.kinds) {
      where.push('kind IN (SELECT value FROM json_each(?))');
      params.push(JSON.stringify(q.kinds));
    }
    if (q.severities) {
      where.push('severity IN (SELECT value FROM json_each(?))');
      params.push(JSON.stringify(q.severities));
    }
    if (q.before?.kind === 'message') {
      // A transition's place: every alert of its moment sorts above it.
      where.push('at < ?');
      params.push(q.before.at);
    } else if (q.before) {
      where.push('at <= ? AND (at < ? OR id < ?)');
      params.push(q.before.at, q.before.at, q.before.id);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const rows = this.queries
      .get(`SELECT ${COLUMNS} FROM alert_entries ${clause} ORDER BY at DESC, id DESC LIMIT ?`)
      .all(...params, q.limit) as AlertEntryRow[];
    return rows.map(toEntry);
  }
}
