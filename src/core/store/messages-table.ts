/**
 * The `messages` table's one row type and its mappers, both ways: every module that reads or writes
 * a message row goes through these, so a column is named and converted in one place.
 */
import type { CachedMessage, CacheSummary, TrackingEnded } from '../../shared/contract';
import { parseMessage, type TeleporterMessage } from '../../shared/messages';
import type { Network } from '../../shared/validators';
import type { SourceKey } from '../../shared/sources';

/** One row of `messages` as SQLite returns it (integers for booleans). */
export interface MessagesRow {
  rowid: number;
  message_id: string;
  network: string;
  status: string;
  receipt_delivered: number;
  from_addr: string;
  to_addr: string;
  source_chain: string;
  destination_chain: string;
  source_ts: number | null;
  destination_ts: number | null;
  first_seen_at: number;
  last_seen_at: number;
  tracked: number;
  pending_since: number | null;
  stuck_fired: number;
  /** The data source that last showed it (src/shared/sources.ts). */
  source: string;
  raw: string;
}

/** Every column but the raw record: reading these never touches the record's overflow pages. */
export type MessageColumnsRow = Omit<MessagesRow, 'raw'>;

export const MESSAGE_COLUMNS =
  'rowid, message_id, network, status, receipt_delivered, from_addr, to_addr, source_chain, destination_chain, source_ts, destination_ts, first_seen_at, last_seen_at, tracked, pending_since, stuck_fired, source';

/** The columns the engine writes for every observation (besides the record and its search text). */
interface MessageFields {
  messageId: string;
  network: Network;
  status: string;
  receiptDelivered: boolean;
  from: string;
  to: string;
  sourceChain: string;
  destinationChain: string;
  sourceTs: number | null;
  destinationTs: number | null;
  /** True while pending or awaiting its receipt: re-checked by the poller, swept for stuck. */
  tracked: boolean;
  pendingSince: number | null;
  stuckFired: boolean;
  /** The data source that showed it (the last one that did). */
  source: SourceKey;
}

/** A stored message without its record: what transitions, re-checks and result rows are computed from. */
export interface MessageState extends MessageFields {
  rowid: number;
  /** Where the API sorts it (source timestamp, else destination timestamp), seconds. */
  sortTs: number | null;
  firstSeenAt: number;
  lastSeenAt: number;
}

/** A message still tracked (pending, or awaiting its receipt). */
export type TrackedMessage = MessageState;

/** What the engine writes for one observed message. */
export interface MessageRow extends MessageFields {
  raw: string;
  searchText: string;
  /** When it was observed (ms): first and last seen on insert, last seen on update. */
  seenAt: number;
}

export function toMessageState(r: MessageColumnsRow): MessageState {
  return {
    rowid: r.rowid,
    messageId: r.message_id,
    network: r.network as Network,
    status: r.status,
    receiptDelivered: r.receipt_delivered === 1,
    from: r.from_addr,
    to: r.to_addr,
    sourceChain: r.source_chain,
    destinationChain: r.destination_chain,
    sourceTs: r.source_ts,
    destinationTs: r.destination_ts,
    sortTs: r.source_ts ?? r.destination_ts,
    firstSeenAt: r.first_seen_at,
    lastSeenAt: r.last_seen_at,
    tracked: r.tracked === 1,
    pendingSince: r.pending_since,
    stuckFired: r.stuck_fired === 1,
    source: r.source,
  };
}

/** The named parameters (`@name`) the insert and update statements bind. */
export function messageParams(row: MessageRow) {
  return {
    messageId: row.messageId,
    network: row.network,
    status: row.status,
    rd: row.receiptDelivered ? 1 : 0,
    from: row.from,
    to: row.to,
    sourceChain: row.sourceChain,
    destinationChain: row.destinationChain,
    sourceTs: row.sourceTs,
    destinationTs: row.destinationTs,
    raw: row.raw,
    seenAt: row.seenAt,
    tracked: row.tracked ? 1 : 0,
    pendingSince: row.pendingSince,
    stuckFired: row.stuckFired ? 1 : 0,
    source: row.source,
  };
}

/** A full row as the contract's cached message, given the addresses watching it. */
export function toCachedMessage(r: MessagesRow, watchedAddresses: string[], trackingEnded?: TrackingEnded): CachedMessage {
  const parsed = parseMessage(JSON.parse(r.raw) as unknown);
  const message: TeleporterMessage = parsed ?? {
    status: 'unknown',
    messageId: r.message_id,
    reportedStatus: r.status,
    problem: 'stored record unreadable',
    raw: {},
  };
  return {
    message,
    network: r.network as Network,
    firstSeenAt: r.first_seen_at,
    lastSeenAt: r.last_seen_at,
    source: r.source,
    watchedAddresses,
    ...(trackingEnded ? { trackingEnded } : {}),
  };
}

/**
 * Columns of a search result row: the state columns, with chains falling back to the EVM chain ID in
 * the record (the columns hold cb58 IDs only; COALESCE reads the record only when a column is empty).
 */
export const SUMMARY_COLUMNS = `${MESSAGE_COLUMNS},
  COALESCE(NULLIF(source_chain, ''), CAST(json_extract(raw, '$.sourceEvmChainId') AS TEXT)) AS shown_source_chain,
  COALESCE(NULLIF(destination_chain, ''), CAST(json_extract(raw, '$.destinationEvmChainId') AS TEXT)) AS shown_destination_chain`;

export interface SummaryRow extends MessageColumnsRow {
  shown_source_chain: string | null;
  shown_destination_chain: string | null;
}

/** A result row of the cache search: read from the columns alone, no stored record parsed. */
export function toSummary(r: SummaryRow): CacheSummary {
  const m = toMessageState(r);
  return {
    messageId: m.messageId,
    network: m.network,
    status: m.status,
    receiptDelivered: m.receiptDelivered,
    from: m.from || null,
    sourceChain: r.shown_source_chain || null,
    destinationChain: r.shown_destination_chain || null,
    time: m.sortTs,
    lastSeenAt: m.lastSeenAt,
    source: m.source,
  };
}
