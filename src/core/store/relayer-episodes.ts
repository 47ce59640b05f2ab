/**
 * Relayer-silent and route-backlog episodes (`relayer_episodes`) and the outbox rows announcing them.
 * An episode is identified by its key and its start; opening one writes its fire row and resolving it
 * its resolve row in the same transaction, so a crash never leaves one announced twice or not at all.
 */
import type { SourceKey } from '../../shared/sources';
import type { Db } from './database';
import type { OutboxStore } from './outbox-store';

/**
 * fuel_low: a watched relayer's wallet on a chain would be empty within the fuel threshold;
 * route_failed_executions: a watched route's failed executions of the last hour reached the threshold
 * (both parts/relayer-economics.ts); source_down: the data source could not be read for SOURCE_DOWN_AFTER_MS;
 * chain_down: one of your own nodes could not (both parts/source-health.ts).
 */
export type EpisodeKind = 'relayer_silent' | 'route_backlog' | 'fuel_low' | 'route_failed_executions' | 'source_down' | 'chain_down';

export interface OpenEpisode {
  id: number;
  key: string;
  kind: EpisodeKind;
  network: string;
  /** The watched relayer's or route's label (its address or chains when unlabelled). */
  subject: string;
  sourceChain: string;
  destinationChain: string;
  /** When the condition began to hold, from the records' times (ms). */
  startedAt: number;
}

export interface Announcement {
  title: string;
  body: string;
}

export class RelayerEpisodes {
  private readonly stmts;

  constructor(
    private readonly db: Db,
    private readonly outbox: OutboxStore,
    /** The current data source's key: episodes are judged from, and belong to, the source that showed them. */
    private readonly source: () => SourceKey,
  ) {
    this.stmts = {
      // Named as OpenEpisode names them, so a row is an episode as it stands.
      open: db.prepare<[string], OpenEpisode>(
        `SELECT id, key, kind, network, subject, source_chain AS sourceChain, destination_chain AS destinationChain, started_at AS startedAt
         FROM relayer_episodes WHERE resolved_at IS NULL AND source = ? ORDER BY id`,
      ),
      openElsewhere: db.prepare<[string], OpenEpisode>(
        `SELECT id, key, kind, network, subject, source_chain AS sourceChain, destination_chain AS destinationChain, started_at AS startedAt
         FROM relayer_episodes WHERE resolved_at IS NULL AND source <> ? ORDER BY id`,
      ),
      insert: db.prepare(
        `INSERT OR IGNORE INTO relayer_episodes (source, key, kind, network, subject, source_chain, destination_chain, started_at, opened_at, announced)
         VALUES (@source, @key, @kind, @network, @subject, @sourceChain, @destinationChain, @startedAt, @openedAt, @announced)`,
      ),
      close: db.prepare('UPDATE relayer_episodes SET resolved_at = ? WHERE id = ? AND resolved_at IS NULL'),
      announced: db.prepare<[number], number>('SELECT announced FROM relayer_episodes WHERE id = ?').pluck(),
    };
  }

  /**
   * The current source's episodes not resolved yet, by key (only those of these kinds when given).
   * Another source's open episodes stay as they were, neither judged nor resolved from this one's figures.
   */
  open(kinds?: readonly EpisodeKind[]): Map<string, OpenEpisode> {
    const rows = this.stmts.open.all(this.source()).filter((r) => !kinds || kinds.includes(r.kind));
    return new Map(rows.map((r) => [r.key, r]));
  }

  /** Other sources' episodes of these kinds not resolved yet. */
  openElsewhere(kinds: readonly EpisodeKind[]): OpenEpisode[] {
    return this.stmts.openElsewhere.all(this.source()).filter((r) => kinds.includes(r.kind));
  }

  /**
   * Opens an episode and queues its fire (none when `a` is null: notifications are off, the episode is
   * still kept so turning them on does not announce it late); false when this key already has an open
   * one or this episode was seen.
   */
  fire(e: Omit<OpenEpisode, 'id'>, at: number, a: Announcement | null): boolean {
    return this.db.transaction(() => {
      const r = this.stmts.insert.run({ ...e, source: this.source(), openedAt: at, announced: a ? 1 : 0 });
      if (r.changes === 0) return false;
      if (a) this.outbox.addEpisode({ episodeId: Number(r.lastInsertRowid), phase: 'fire', title: a.title, body: a.body, createdAt: at });
      return true;
    })();
  }

  /**
   * Resolves an open episode and queues its resolve (none when `a` is null: nobody watches it any more or
   * notifications are off, nor when its fire was never announced).
   */
  resolve(id: number, at: number, a: Announcement | null): boolean {
    return this.db.transaction(() => {
      const announced = this.stmts.announced.get(id) === 1;
      if (this.stmts.close.run(at, id).changes === 0) return false;
      if (a && announced) this.outbox.addEpisode({ episodeId: id, phase: 'resolve', title: a.title, body: a.body, createdAt: at });
      return true;
    })();
  }
}
