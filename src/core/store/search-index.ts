/**
 * The two text indexes of the cache search (`messages_fts`: trigram; `messages_prefix`: token
 * prefixes), keyed by the message's rowid and kept in step with `messages` by its writers.
 */
import { chainLabel } from '../../shared/chains';
import type { TeleporterMessage } from '../../shared/messages';
import type { Db } from './database';

/** Lower-cased text the search index matches against: IDs, addresses, chains (IDs and names), hashes. */
export function searchTextOf(m: TeleporterMessage, raw: Record<string, unknown>): string {
  const s = (v: unknown) => (typeof v === 'string' ? v : '');
  const src = raw.sourceTransaction as { txHash?: unknown } | undefined;
  const dst = raw.destinationTransaction as { txHash?: unknown } | undefined;
  const parts = [
    m.messageId,
    s(raw.from),
    s(raw.to),
    s(raw.sourceBlockchainId),
    s(raw.destinationBlockchainId),
    s(raw.sourceEvmChainId),
    s(raw.destinationEvmChainId),
    chainLabel(s(raw.sourceBlockchainId) || undefined),
    chainLabel(s(raw.destinationBlockchainId) || undefined),
    s(src?.txHash),
    s(dst?.txHash),
  ];
  return parts.filter(Boolean).join(' ').toLowerCase();
}

export class SearchIndex {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      ftsInsert: db.prepare('INSERT INTO messages_fts (rowid, text) VALUES (?, ?)'),
      ftsDelete: db.prepare('DELETE FROM messages_fts WHERE rowid = ?'),
      prefixInsert: db.prepare('INSERT INTO messages_prefix (rowid, text) VALUES (?, ?)'),
      prefixDelete: db.prepare('DELETE FROM messages_prefix WHERE rowid = ?'),
    };
  }

  add(rowid: number, text: string): void {
    this.stmts.ftsInsert.run(rowid, text);
    this.stmts.prefixInsert.run(rowid, text);
  }

  remove(rowid: number): void {
    this.stmts.ftsDelete.run(rowid);
    this.stmts.prefixDelete.run(rowid);
  }

  /** Replaces the text of a message already indexed. */
  replace(rowid: number, text: string): void {
    this.remove(rowid);
    this.add(rowid, text);
  }
}
