/** Queries for learning deliveries and receipts from the messages that carry receipts back (poller/receipt-carriers). */
import type { Db } from './database';

export interface OpenMessage {
  messageId: string;
  /** Still pending (else delivered, awaiting its receipt). */
  pending: boolean;
  sourceChain: string;
  destinationChain: string;
  nonce: string;
}

export interface AwaitingRecord {
  network: string;
  raw: string;
}

export class AwaitingReceipts {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      // The tracked-rows index narrows this to the few thousand open messages.
      list: db.prepare(
        `SELECT message_id, status = 'pending' AS pending, source_chain, destination_chain, json_extract(raw, '$.messageNonce') AS nonce
         FROM messages WHERE tracked = 1`,
      ),
      open: db.prepare('SELECT tracked, status FROM messages WHERE message_id = ?'),
      one: db.prepare(`SELECT network, raw FROM messages WHERE message_id = ? AND tracked = 1 AND status <> 'pending' AND receipt_delivered = 0`),
    };
  }

  /** Tracked messages (someone watches them; pending or awaiting their receipt). Chain IDs tell networks apart. */
  list(): OpenMessage[] {
    const rows = this.stmts.list.all() as { message_id: string; pending: number; source_chain: string; destination_chain: string; nonce: unknown }[];
    return rows.map((r) => ({
      messageId: r.message_id,
      pending: r.pending === 1,
      sourceChain: r.source_chain,
      destinationChain: r.destination_chain,
      nonce: String(r.nonce),
    }));
  }

  /** 'pending' or 'awaiting' (its receipt) for a tracked message, else null (not cached, or closed). */
  openState(messageId: string): 'pending' | 'awaiting' | null {
    const r = this.stmts.open.get(messageId) as { tracked: number; status: string } | undefined;
    return r?.tracked === 1 ? (r.status === 'pending' ? 'pending' : 'awaiting') : null;
  }

  /** The cached record of a message still awaiting its receipt, else null. */
  get(messageId: string): AwaitingRecord | null {
    return (this.stmts.one.get(messageId) as AwaitingRecord | undefined) ?? null;
  }
}
