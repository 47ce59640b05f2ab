/**
 * The indexer's own tables in the service's store file: every messenger event it has read (the facts a
 * record is built from), the hashes of the blocks it read (to notice a reorg) and each chain's
 * checkpoint. They share the record store's connection, so one scanned range (its events, its
 * checkpoint and the records rebuilt from them) is committed in one transaction: a kill -9 loses the
 * range whole and the next start reads it again, never half.
 */
import type { Database } from '../sqlite';
import type { EventFacts } from './event-facts';

const TABLES = `
CREATE TABLE IF NOT EXISTS chain_events (
  chain TEXT NOT NULL,
  block INTEGER NOT NULL,
  log_index INTEGER NOT NULL,
  message_id TEXT NOT NULL,
  facts TEXT NOT NULL,
  PRIMARY KEY (chain, block, log_index)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS chain_events_by_message ON chain_events (message_id);
CREATE TABLE IF NOT EXISTS chain_blocks (
  chain TEXT NOT NULL,
  block INTEGER NOT NULL,
  hash TEXT NOT NULL,
  PRIMARY KEY (chain, block)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chain_checkpoints (
  chain TEXT PRIMARY KEY,
  next_block INTEGER,
  evm_chain_id TEXT
);
`;

/** One stored event: where it was read and what it says. */
export interface StoredEvent {
  chain: string;
  block: number;
  logIndex: number;
  facts: EventFacts;
}

/** Block hashes kept per chain (the newest): enough to find where a reorg forked. */
const BLOCKS_KEPT = 256;

export class ChainEvents {
  private readonly stmts;

  constructor(private readonly db: Database) {
    db.exec(TABLES);
    this.stmts = {
      insert: db.prepare('INSERT OR REPLACE INTO chain_events (chain, block, log_index, message_id, facts) VALUES (?, ?, ?, ?, ?)'),
      ofMessage: db.prepare<[string], { chain: string; block: number; logIndex: number; facts: string }>(
        'SELECT chain, block, log_index AS logIndex, facts FROM chain_events WHERE message_id = ? ORDER BY chain, block, log_index',
      ),
      messagesFrom: db.prepare<[string, number], string>('SELECT DISTINCT message_id FROM chain_events WHERE chain = ? AND block >= ?').pluck(),
      deleteFrom: db.prepare('DELETE FROM chain_events WHERE chain = ? AND block >= ?'),
      putBlock: db.prepare('INSERT OR REPLACE INTO chain_blocks (chain, block, hash) VALUES (?, ?, ?)'),
      blocksDesc: db.prepare<[string], { block: number; hash: string }>('SELECT block, hash FROM chain_blocks WHERE chain = ? ORDER BY block DESC'),
      blockHash: db.prepare<[string, number], string>('SELECT hash FROM chain_blocks WHERE chain = ? AND block = ?').pluck(),
      deleteBlocksFrom: db.prepare('DELETE FROM chain_blocks WHERE chain = ? AND block >= ?'),
      trimBlocks: db.prepare(
        'DELETE FROM chain_blocks WHERE chain = ? AND block < (SELECT min(block) FROM (SELECT block FROM chain_blocks WHERE chain = ? ORDER BY block DESC LIMIT ?))',
      ),
      checkpoint: db.prepare<[string], { next: number | null; evmChainId: string | null }>(
        'SELECT next_block AS next, evm_chain_id AS evmChainId FROM chain_checkpoints WHERE chain = ?',
      ),
      setNext: db.prepare('INSERT INTO chain_checkpoints (chain, next_block) VALUES (?, ?) ON CONFLICT(chain) DO UPDATE SET next_block = excluded.next_block'),
      setEvmChainId: db.prepare(
        'INSERT INTO chain_checkpoints (chain, next_block, evm_chain_id) VALUES (?, NULL, ?) ON CONFLICT(chain) DO UPDATE SET evm_chain_id = excluded.evm_chain_id',
      ),
    };
  }

  add(e: StoredEvent): void {
    this.stmts.insert.run(e.chain, e.block, e.logIndex, e.facts.messageId, JSON.stringify(e.facts));
  }

  /** Every event of a message, on every chain, in chain order. */
  ofMessage(messageId: string): StoredEvent[] {
    return this.stmts.ofMessage.all(messageId).map((r) => ({ chain: r.chain, block: r.block, logIndex: r.logIndex, facts: JSON.parse(r.facts) as EventFacts }));
  }

  /** Forgets a chain's events and block hashes from `block` on (a reorg); returns the messages they touched. */
  rollBack(chain: string, block: number): string[] {
    const touched = this.stmts.messagesFrom.all(chain, block);
    this.stmts.deleteFrom.run(chain, block);
    this.stmts.deleteBlocksFrom.run(chain, block);
    return touched;
  }

  putBlock(chain: string, block: number, hash: string): void {
    this.stmts.putBlock.run(chain, block, hash);
    this.stmts.trimBlocks.run(chain, chain, BLOCKS_KEPT);
  }

  blockHash(chain: string, block: number): string | undefined {
    return this.stmts.blockHash.get(chain, block);
  }

  /** Known block hashes, newest first. */
  knownBlocks(chain: string): { block: number; hash: string }[] {
    return this.stmts.blocksDesc.all(chain);
  }

  /** The first block not yet read (undefined: never read). */
  next(chain: string): number | undefined {
    return this.stmts.checkpoint.get(chain)?.next ?? undefined;
  }

  setNext(chain: string, next: number): void {
    this.stmts.setNext.run(chain, next);
  }

  /**
   * Drops the events whose block time lies outside [earliest, latest] (s): stored before the indexer
   * checked block times (a node's far-future block). Returns the messages they belonged to, to rebuild.
   */
  dropTimesOutside(earliest: number, latest: number): string[] {
    const where = `json_extract(facts, '$.tx.timestamp') NOT BETWEEN ? AND ?`;
    const touched = this.db.prepare<[number, number], string>(`SELECT DISTINCT message_id FROM chain_events WHERE ${where}`).pluck().all(earliest, latest);
    if (touched.length) this.db.prepare(`DELETE FROM chain_events WHERE ${where}`).run(earliest, latest);
    return touched;
  }

  /** The EVM chain ID the node reported first (a later different answer means a wrong or lying node). */
  evmChainId(chain: string): string | null {
    return this.stmts.checkpoint.get(chain)?.evmChainId ?? null;
  }

  setEvmChainId(chain: string, id: string): void {
    this.stmts.setEvmChainId.run(chain, id);
  }
}
