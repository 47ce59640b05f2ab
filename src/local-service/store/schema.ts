/**
 * The SQLite layout. `pos` (the rowid) is the sort key: Unix seconds * 1e6 + a per-second counter,
 * so "newest first, ties by a stable key" is one integer and every index ends with it implicitly.
 *
 * Chain filters (network, source, destination, blockchainId) all reduce to a set of routes (a route
 * is a source chain + destination chain pair and has one network), which are few. Address filters are
 * many-valued. Every index below is "equality columns, then pos", so any combination of filters is
 * answered by one or a few exact index range scans (one per enumerated route or network), merged.
 */
export const SCHEMA_VERSION = 1;
/** How many messages one second can hold in the sort key. */
export const POS_PER_SECOND = 1_000_000;

export type IndexColumn = 'net' | 'route' | 'frm' | 'too';
export interface IndexSpec {
  name: string;
  cols: readonly IndexColumn[];
}

export const MESSAGE_INDEXES: readonly IndexSpec[] = [
  { name: 'messages_by_net', cols: ['net'] },
  { name: 'messages_by_route', cols: ['route'] },
  { name: 'messages_by_from_net', cols: ['frm', 'net'] },
  { name: 'messages_by_from_route', cols: ['frm', 'route'] },
  { name: 'messages_by_to_net', cols: ['too', 'net'] },
  { name: 'messages_by_to_route', cols: ['too', 'route'] },
  { name: 'messages_by_from_to_net', cols: ['frm', 'too', 'net'] },
  { name: 'messages_by_from_to_route', cols: ['frm', 'too', 'route'] },
];

/** Network codes stored in `net`. */
export const NET_CODES = { mainnet: 0, fuji: 1, unknown: 2 } as const;

export const TABLES_SQL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS chains (
  id INTEGER PRIMARY KEY,
  blockchain_id TEXT NOT NULL,
  evm_chain_id TEXT NOT NULL,
  UNIQUE (blockchain_id, evm_chain_id)
);
CREATE TABLE IF NOT EXISTS routes (
  id INTEGER PRIMARY KEY,
  src INTEGER NOT NULL REFERENCES chains(id),
  dst INTEGER NOT NULL REFERENCES chains(id),
  net INTEGER NOT NULL,
  UNIQUE (src, dst)
);
CREATE TABLE IF NOT EXISTS addresses (id INTEGER PRIMARY KEY, address TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS messages (
  pos INTEGER PRIMARY KEY,
  message_id TEXT NOT NULL,
  net INTEGER NOT NULL,
  route INTEGER NOT NULL,
  frm INTEGER NOT NULL,
  too INTEGER NOT NULL,
  status TEXT NOT NULL,
  raw TEXT NOT NULL
);
`;

/** Unique message IDs: an index of its own (not a table constraint) so a bulk load can defer it. */
export const MESSAGE_ID_INDEX_SQL = 'CREATE UNIQUE INDEX IF NOT EXISTS messages_by_id ON messages (message_id)';

export const indexSql = (ix: IndexSpec): string => `CREATE INDEX IF NOT EXISTS ${ix.name} ON messages (${ix.cols.join(', ')})`;
