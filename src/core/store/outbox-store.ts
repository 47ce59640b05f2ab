import type { NotificationPayload } from '../../shared/contract';
import type { Db } from './database';

interface OutboxRow {
  id: number;
  /** Null on a row announcing a relayer episode. */
  transition_id: number | null;
  message_id: string | null;
  title: string;
  body: string;
  batch: number | null;
}

/** More unshown notifications than this at once become one summary. */
export const COALESCE_ABOVE = 3;

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
      claimed: db.prepare<[], OutboxRow>('SELECT * FROM outbox WHERE delivered_at IS NULL AND batch IS NOT NULL ORDER BY id'),
      unclaimed: db.prepare<[], OutboxRow>('SELECT * FROM outbox WHERE delivered_at IS NULL AND batch IS NULL ORDER BY id'),
      claimAsOne: db.prepare('UPDATE outbox SET batch = ? WHERE delivered_at IS NULL AND batch IS NULL AND id <= ?'),
      claimAlone: db.prepare('UPDATE outbox SET batch = id WHERE id = ?'),
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
      if (fresh.length > COALESCE_ABOVE) {
        const batch = (fresh[0] as OutboxRow).id;
        this.stmts.claimAsOne.run(batch, (fresh[fresh.length - 1] as OutboxRow).id);
        for (const r of fresh) r.batch = batch;
      } else {
        for (const r of fresh) {
          this.stmts.claimAlone.run(r.id);
          r.batch = r.id;
        }
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

function toPayload(batch: number, rows: OutboxRow[]): NotificationPayload {
  if (rows.length === 1) {
    const r = rows[0] as OutboxRow;
    return { id: batch, title: r.title, body: r.body, ...(r.message_id ? { messageId: r.message_id } : {}), transitionIds: transitionIdsOf([r]) };
  }
  const titles = new Map<string, number>();
  for (const r of rows) titles.set(r.title, (titles.get(r.title) ?? 0) + 1);
  const body = [...titles.entries()].map(([t, n]) => `${n} × ${t}`).join(', ');
  return { id: batch, title: `${rows.length} message updates`, body, transitionIds: transitionIdsOf(rows) };
}

const transitionIdsOf = (rows: OutboxRow[]) => rows.map((r) => r.transition_id).filter((id): id is number => id !== null);
