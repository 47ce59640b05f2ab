import type { Db } from '../store/database';

/** A relayer episode's fire or resolve, on an outbox row that has no transition. */
export interface EpisodeOfRow {
  key: string;
  phase: 'fire' | 'resolve';
  subject: string;
  startedAt: number;
}

/** One outbox row as a channel sees it: the notification text joined with its transition (or its relayer episode). */
export interface AlertRow {
  outboxId: number;
  transitionId: number | null;
  /** '' on an episode's row. */
  messageId: string;
  title: string;
  body: string;
  kind: string;
  at: number;
  network: string;
  sourceChain: string;
  destinationChain: string;
  /** Watcher keys (addresses, feed:<id>). */
  watchers: string[];
  /** The data source that showed it (src/shared/sources.ts). */
  source: string;
  attempts: number;
  episode?: EpisodeOfRow;
}

interface RawRow extends Omit<AlertRow, 'watchers' | 'episode'> {
  watchers: string;
  episodeKey: string | null;
  episodePhase: 'fire' | 'resolve' | null;
  episodeSubject: string | null;
  episodeStartedAt: number | null;
}

const SELECT = `SELECT o.id AS outboxId, o.transition_id AS transitionId, COALESCE(o.message_id, '') AS messageId, o.title, o.body,
  COALESCE(t.kind, e.kind) AS kind, COALESCE(t.at, o.created_at) AS at, COALESCE(t.network, e.network) AS network,
  COALESCE(t.source_chain, e.source_chain) AS sourceChain, COALESCE(t.destination_chain, e.destination_chain) AS destinationChain,
  COALESCE(t.watchers, '[]') AS watchers, COALESCE(t.source, e.source, '') AS source, COALESCE(d.attempts, 0) AS attempts,
  e.key AS episodeKey, o.episode_phase AS episodePhase, e.subject AS episodeSubject, e.started_at AS episodeStartedAt
  FROM alert_deliveries d JOIN outbox o ON o.id = d.outbox_id
  LEFT JOIN transitions t ON t.id = o.transition_id LEFT JOIN relayer_episodes e ON e.id = o.episode_id`;

function toAlertRow(r: RawRow): AlertRow {
  const { episodeKey, episodePhase, episodeSubject, episodeStartedAt, watchers, ...rest } = r;
  const row: AlertRow = { ...rest, watchers: parseList(watchers) };
  if (episodeKey !== null && episodePhase !== null) {
    row.episode = { key: episodeKey, phase: episodePhase, subject: episodeSubject ?? '', startedAt: episodeStartedAt ?? r.at };
  }
  return row;
}

/** Where a channel's oldest undelivered row stands: the channel's backoff lives on it. */
export interface ChannelHead {
  /** Failed attempts in a row (since the channel last delivered). */
  attempts: number;
  nextAttemptAt: number;
  lastError: string | null;
  /** When its outbox row was written: about when a channel that fails on it began failing. */
  createdAt: number;
}

/**
 * Per-channel delivery of the outbox (the desktop drainer keeps its own `delivered_at`): each channel
 * has a cursor over outbox IDs, and a delivery row per outbox row past its start, so a channel added
 * later does not replay history and a restart resumes where it stopped. A channel delivers in outbox
 * order, and its oldest undelivered row (its head) carries its retry time: the rows behind a failed one
 * wait with it, so a dead receiver is asked once per retry, not once per row.
 */
export class AlertDeliveryStore {
  constructor(private readonly db: Db) {}

  /** Registers a channel; a new one starts after the newest outbox row (it does not replay history). */
  register(channel: string): void {
    // Rows of outbox entries that retention pruned are history: forget them (once per start).
    this.db.prepare('DELETE FROM alert_deliveries WHERE channel = ? AND outbox_id NOT IN (SELECT id FROM outbox)').run(channel);
    this.db.prepare('INSERT OR IGNORE INTO alert_channels (channel, cursor) VALUES (?, (SELECT COALESCE(MAX(id), 0) FROM outbox))').run(channel);
  }

  /** Drops a removed channel's cursor and rows: added again later, it starts afresh instead of replaying. */
  forget(channel: string): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM alert_deliveries WHERE channel = ?').run(channel);
      this.db.prepare('DELETE FROM alert_channels WHERE channel = ?').run(channel);
    })();
  }

  /** Gives outbox rows written since the last call a delivery row, then returns rows due now. */
  due(channel: string, now: number, limit: number): AlertRow[] {
    return this.db.transaction(() => {
      const cursor = (this.db.prepare('SELECT cursor FROM alert_channels WHERE channel = ?').pluck().get(channel) as number | undefined) ?? 0;
      const top = this.db.prepare('SELECT COALESCE(MAX(id), 0) FROM outbox').pluck().get() as number;
      if (top > cursor) {
        this.db
          .prepare('INSERT OR IGNORE INTO alert_deliveries (outbox_id, channel) SELECT id, ? FROM outbox WHERE id > ? AND id <= ?')
          .run(channel, cursor, top);
        this.db.prepare('UPDATE alert_channels SET cursor = ? WHERE channel = ?').run(top, channel);
      }
      // Retention pruning may have removed an undelivered row's outbox entry, transition or episode: drop it.
      this.db
        .prepare(
          `DELETE FROM alert_deliveries WHERE channel = ? AND delivered_at IS NULL AND outbox_id NOT IN
             (SELECT o.id FROM outbox o JOIN alert_deliveries d ON d.outbox_id = o.id AND d.channel = ? AND d.delivered_at IS NULL
              LEFT JOIN transitions t ON t.id = o.transition_id LEFT JOIN relayer_episodes e ON e.id = o.episode_id
              WHERE t.id IS NOT NULL OR e.id IS NOT NULL)`,
        )
        .run(channel, channel);
      const head = this.head(channel);
      if (!head || head.nextAttemptAt > now) return [];
      const rows = this.db.prepare(`${SELECT} WHERE d.channel = ? AND d.delivered_at IS NULL ORDER BY d.outbox_id LIMIT ?`).all(channel, limit) as RawRow[];
      return rows.map(toAlertRow);
    })();
  }

  /** The channel's oldest undelivered row (null: nothing waits). */
  head(channel: string): ChannelHead | null {
    // Through the index of undelivered rows: read on every drain and scrape, it never walks the delivered ones.
    const row = this.db
      .prepare(
        `SELECT d.attempts, d.next_attempt_at AS nextAttemptAt, d.last_error AS lastError, o.created_at AS createdAt
           FROM alert_deliveries d INDEXED BY alert_deliveries_due JOIN outbox o ON o.id = d.outbox_id
          WHERE d.channel = ? AND d.delivered_at IS NULL ORDER BY d.outbox_id LIMIT 1`,
      )
      .get(channel) as ChannelHead | undefined;
    return row ?? null;
  }

  delivered(channel: string, outboxIds: readonly number[], at: number): void {
    const stmt = this.db.prepare(
      'UPDATE alert_deliveries SET delivered_at = ?, attempts = attempts + 1, last_error = NULL WHERE channel = ? AND outbox_id = ?',
    );
    this.db.transaction(() => {
      for (const id of outboxIds) stmt.run(at, channel, id);
    })();
  }

  failed(channel: string, outboxIds: readonly number[], nextAttemptAt: number, error: string): void {
    const stmt = this.db.prepare(
      'UPDATE alert_deliveries SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE channel = ? AND outbox_id = ?',
    );
    this.db.transaction(() => {
      for (const id of outboxIds) stmt.run(nextAttemptAt, error.slice(0, 500), channel, id);
    })();
  }

  /** When the channel is due again: its head's retry time (null: nothing waits). */
  nextDueAt(channel: string): number | null {
    return this.head(channel)?.nextAttemptAt ?? null;
  }

  pendingCount(channel: string): number {
    return this.db.prepare('SELECT COUNT(*) FROM alert_deliveries WHERE channel = ? AND delivered_at IS NULL').pluck().get(channel) as number;
  }
}

function parseList(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}
