import type { NotificationPayload } from '../../shared/contract';
import { alertSeverity, episodeSeverity, EPISODE_WORDS, transitionSeverity, type EpisodeKind, type Severity } from '../../shared/vocabulary';
import type { Db } from './database';

interface OutboxRow {
  id: number;
  /** Null on a row announcing a relayer episode. */
  transition_id: number | null;
  message_id: string | null;
  title: string;
  body: string;
  batch: number | null;
  episode_phase: 'fire' | 'resolve' | null;
  /** The announced transition's kind (joined; null for an episode). */
  transition_kind: string | null;
  /** The announced episode's kind (joined; null for a transition). */
  episode_kind: string | null;
}

const isEpisodeKind = (k: string | null): k is EpisodeKind => k !== null && Object.hasOwn(EPISODE_WORDS, k);

/** As loud as Activity lists it: an episode by its kind's entry in EPISODE_WORDS, a transition by its kind. */
function severityOf(r: OutboxRow): Severity {
  if (!r.episode_phase) return transitionSeverity(r.transition_kind ?? '');
  return isEpisodeKind(r.episode_kind) ? alertSeverity(r.episode_kind, r.episode_phase) : episodeSeverity(r.episode_phase);
}

/** More unshown routine notifications than this at once become one summary (warnings and recoveries never do). */
const COALESCE_ABOVE = 3;

/**
 * The notification outbox. Rows are written in the same transaction as their transition; a drain
 * claims rows into batches (one row each, or one summary batch) before showing them, and a batch
 * is acknowledged after the notifier resolves. A batch claimed but not acknowledged when the process
 * died is shown again with the same ID on the next start, so the shell can recognise it.
 */
export class OutboxStore {
  private readonly stmts;

  constructor(private readonly db: Db) {
    this.stmts = {
      add: db.prepare('INSERT OR IGNORE INTO outbox (transition_id, message_id, title, body, created_at) VALUES (?, ?, ?, ?, ?)'),
      addEpisode: db.prepare('INSERT OR IGNORE INTO outbox (episode_id, episode_phase, title, body, created_at) VALUES (?, ?, ?, ?, ?)'),
      claimed: db.prepare<[], OutboxRow>(`${ROWS} WHERE o.delivered_at IS NULL AND o.batch IS NOT NULL ORDER BY o.id`),
      unclaimed: db.prepare<[], OutboxRow>(`${ROWS} WHERE o.delivered_at IS NULL AND o.batch IS NULL ORDER BY o.id`),
      claimInto: db.prepare('UPDATE outbox SET batch = ? WHERE id = ?'),
      ack: db.prepare('UPDATE outbox SET delivered_at = ? WHERE batch = ? AND delivered_at IS NULL'),
      pendingCount: db.prepare<[], number>('SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL').pluck(),
    };
  }

  add(n: { transitionId: number; messageId: string; title: string; body: string; createdAt: number }): void {
    this.stmts.add.run(n.transitionId, n.messageId, n.title, n.body, n.createdAt);
  }

  /** A relayer episode's fire or resolve (once each: `UNIQUE(episode_id, episode_phase)`). */
  addEpisode(n: { episodeId: number; phase: 'fire' | 'resolve'; title: string; body: string; createdAt: number }): void {
    this.stmts.addEpisode.run(n.episodeId, n.phase, n.title, n.body, n.createdAt);
  }

  /** Batches to show now: unacknowledged claimed batches first, then newly claimed ones. */
  claim(): NotificationPayload[] {
    return this.db.transaction(() => {
      const open = this.stmts.claimed.all();
      const fresh = this.stmts.unclaimed.all();
      // Warnings and recoveries are shown alone; only routine updates are summed up.
      const routine = fresh.filter((r) => severityOf(r) === 'info');
      const summed = routine.length > COALESCE_ABOVE ? new Set(routine) : new Set<OutboxRow>();
      const summaryBatch = routine[0]?.id ?? 0;
      for (const r of fresh) {
        r.batch = summed.has(r) ? summaryBatch : r.id;
        this.stmts.claimInto.run(r.batch, r.id);
      }
      const byBatch = new Map<number, OutboxRow[]>();
      for (const r of [...open, ...fresh]) {
        const list = byBatch.get(r.batch as number) ?? [];
        list.push(r);
        byBatch.set(r.batch as number, list);
      }
      return [...byBatch.entries()].sort((a, b) => a[0] - b[0]).map(([batch, rows]) => toPayload(batch, rows));
    })();
  }

  ack(batch: number, at: number): void {
    this.stmts.ack.run(at, batch);
  }

  pendingCount(): number {
    return this.stmts.pendingCount.get() ?? 0;
  }
}

const ROWS = `SELECT o.*, t.kind AS transition_kind, e.kind AS episode_kind FROM outbox o
  LEFT JOIN transitions t ON t.id = o.transition_id LEFT JOIN relayer_episodes e ON e.id = o.episode_id`;

function toPayload(batch: number, rows: OutboxRow[]): NotificationPayload {
  if (rows.length === 1) {
    const r = rows[0] as OutboxRow;
    return {
      id: batch,
      title: r.title,
      body: r.body,
      severity: severityOf(r),
      ...(r.message_id ? { messageId: r.message_id } : {}),
      transitionIds: transitionIdsOf([r]),
    };
  }
  const titles = new Map<string, number>();
  for (const r of rows) titles.set(r.title, (titles.get(r.title) ?? 0) + 1);
  const body = [...titles.entries()].map(([t, n]) => `${n} × ${t}`).join(', ');
  return { id: batch, title: `${rows.length} message updates`, body, severity: 'info', transitionIds: transitionIdsOf(rows) };
}

const transitionIdsOf = (rows: OutboxRow[]) => rows.map((r) => r.transition_id).filter((id): id is number => id !== null);
