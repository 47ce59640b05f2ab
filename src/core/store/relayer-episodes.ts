/**
 * Alert episodes (`relayer_episodes`: relayer silent, route backlog, fuel low, failed executions, …), the
 * Activity entry of each fire and resolve and the outbox rows announcing them. An episode is identified by
 * its key and its start; opening one writes its fire entry (and row) and resolving it its resolve entry
 * (and row) in the same transaction, so a crash never leaves one listed or announced twice or not at all.
 */
import type { AlertEntry } from '../../shared/contract';
import type { SourceKey } from '../../shared/sources';
import { alertSeverity, closedWords, type EpisodeKind } from '../../shared/vocabulary';
import type { AlertEntries } from './alert-entries';
import type { Db } from './database';
import type { OutboxStore } from './outbox-store';

export type { EpisodeKind } from '../../shared/vocabulary';

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

/** An episode as it opens, with the watched relayer it concerns, if any (named by its Activity entries). */
export type EpisodeStart = Omit<OpenEpisode, 'id'> & { relayer?: string };

export interface Announcement {
  title: string;
  body: string;
}

/** Named as OpenEpisode names them, so a row is an episode as it stands. */
const EPISODE = 'id, key, kind, network, subject, source_chain AS sourceChain, destination_chain AS destinationChain, started_at AS startedAt';

export class RelayerEpisodes {
  private readonly stmts;

  constructor(
    private readonly db: Db,
    private readonly outbox: OutboxStore,
    private readonly entries: AlertEntries,
    /** The current data source's key: episodes are judged from, and belong to, the source that showed them. */
    private readonly source: () => SourceKey,
  ) {
    this.stmts = {
      open: db.prepare<[string], OpenEpisode>(`SELECT ${EPISODE} FROM relayer_episodes WHERE resolved_at IS NULL AND source = ? ORDER BY id`),
      openElsewhere: db.prepare<[string], OpenEpisode>(`SELECT ${EPISODE} FROM relayer_episodes WHERE resolved_at IS NULL AND source <> ? ORDER BY id`),
      insert: db.prepare(
        `INSERT OR IGNORE INTO relayer_episodes (source, key, kind, network, subject, source_chain, destination_chain, started_at, opened_at, announced)
         VALUES (@source, @key, @kind, @network, @subject, @sourceChain, @destinationChain, @startedAt, @openedAt, @announced)`,
      ),
      sourceOf: db.prepare<[number], string>('SELECT source FROM relayer_episodes WHERE id = ?').pluck(),
      close: db.prepare('UPDATE relayer_episodes SET resolved_at = ? WHERE id = ? AND resolved_at IS NULL'),
      announced: db.prepare<[number], number>('SELECT announced FROM relayer_episodes WHERE id = ?').pluck(),
      get: db.prepare<[number], OpenEpisode>(`SELECT ${EPISODE} FROM relayer_episodes WHERE id = ?`),
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
   * Opens an episode, lists its fire in Activity and queues its announcement (none unless `announce`:
   * with notifications off the episode is still kept and listed, so turning them on does not announce it
   * late); null when this key already has an open one or this episode was seen.
   */
  fire(e: EpisodeStart, at: number, a: Announcement, announce: boolean): AlertEntry | null {
    return this.db.transaction(() => {
      const { relayer, ...episode } = e;
      const source = this.source();
      const r = this.stmts.insert.run({ ...episode, source, openedAt: at, announced: announce ? 1 : 0 });
      if (r.changes === 0) return null;
      const episodeId = Number(r.lastInsertRowid);
      if (announce) this.outbox.addEpisode({ episodeId, phase: 'fire', title: a.title, body: a.body, createdAt: at });
      return this.entries.add({ ...entryOf({ ...episode, id: episodeId }, 'fire', at, a, source), ...(relayer ? { relayer } : {}) });
    })();
  }

  /**
   * Resolves an open episode, lists its resolve and queues its announcement (none unless `announce`, nor
   * when its fire was never announced). `a` null: closed quietly (nobody watches it any more, or its alert
   * was turned off), listed as routine and never announced. Null when it was not open.
   */
  resolve(id: number, at: number, a: Announcement | null, announce: boolean): AlertEntry | null {
    return this.db.transaction(() => {
      const episode = this.stmts.get.get(id);
      const announced = this.stmts.announced.get(id) === 1;
      if (!episode || this.stmts.close.run(at, id).changes === 0) return null;
      if (a && announce && announced) this.outbox.addEpisode({ episodeId: id, phase: 'resolve', title: a.title, body: a.body, createdAt: at });
      const source = this.stmts.sourceOf.get(id) ?? this.source();
      return this.entries.add(entryOf(episode, 'resolve', at, a ?? closedWords(episode.kind, episode.subject), source, a === null));
    })();
  }
}

/** An episode's fire or resolve as Activity lists it. */
function entryOf(e: OpenEpisode, phase: 'fire' | 'resolve', at: number, a: Announcement, source: SourceKey, quiet = false) {
  return {
    episodeId: e.id,
    episodeKind: e.kind,
    phase,
    severity: alertSeverity(e.kind, phase, quiet),
    title: a.title,
    body: a.body,
    subject: e.subject,
    network: e.network as AlertEntry['network'],
    ...(e.sourceChain ? { sourceChain: e.sourceChain } : {}),
    ...(e.destinationChain ? { destinationChain: e.destinationChain } : {}),
    at,
    source,
  };
}
