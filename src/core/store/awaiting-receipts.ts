/** Queries for learning receipts from the messages that carry them back (poller/receipt-carriers). */
import type { Db } from './database';

export interface AwaitingReceipt {
  messageId: string;
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
        `SELECT message_id, source_chain, destination_chain, json_extract(raw, '$.messageNonce') AS nonce FROM messages
         WHERE tracked = 1 AND status <> 'pending' AND receipt_delivered = 0`,
      ),
      tracked: db.prepare('SELECT tracked FROM messages WHERE message_id = ?'),
      one: db.prepare(`SELECT network, raw FROM messages WHERE message_id = ? AND tracked = 1 AND status <> 'pending' AND receipt_delivered = 0`),
    };
  }

  /** Delivered messages someone watches whose receipt has not been seen (chain IDs tell networks apart). */
  list(): AwaitingReceipt[] {
    const rows = this.stmts.list.all() as { message_id: string; source_chain: string; destination_chain: string; nonce: unknown }[];
    return rows.map((r) => ({ messageId: r.message_id, sourceChain: r.source_chain, destinationChain: r.destination_chain, nonce: String(r.nonce) }));
  }

  /** Is the message cached and tracked (someone watches it and it is still open)? */
  isTracked(messageId: string): boolean {
    return (this.stmts.tracked.get(messageId) as { tracked: number } | undefined)?.tracked === 1;
  }

  /** The cached record of a message still awaiting its receipt, else null. */
  get(messageId: string): AwaitingRecord | null {
    return (this.stmts.one.get(messageId) as AwaitingRecord | undefined) ?? null;
  }
}
