/**
 * Read-only: the cached messages the relayer figures count (deliveries by destination time, pending
 * messages still tracked), as the few fields they need, extracted inside SQLite (no record parsed in JS).
 */
import type { CacheSummary } from '../../shared/contract';
import type { SourceKey } from '../../shared/sources';
import type { Db } from './database';
import { SUMMARY_COLUMNS, toSummary, type SummaryRow } from './messages-table';

export interface RouteMessageRow {
  message_id: string;
  network: string;
  status: string;
  source_chain: string;
  destination_chain: string;
  source_evm: unknown;
  destination_evm: unknown;
  source_ts: number | null;
  destination_ts: number | null;
  deliverer: unknown;
  reward_address: unknown;
  gas: unknown;
  token: unknown;
  symbol: unknown;
  decimals: unknown;
  value: unknown;
  currency: unknown;
  price: unknown;
  receipt: unknown;
  executed: unknown;
}

/** Record fields read in one pass over the record (one json_extract per field would parse it once per field). */
const PATHS = [
  ['source_evm', '$.sourceEvmChainId'],
  ['destination_evm', '$.destinationEvmChainId'],
  ['deliverer', '$.destinationTransaction.delivererAddress'],
  ['reward_address', '$.destinationTransaction.rewardRedeemer'],
  ['gas', '$.destinationTransaction.gasSpent'],
  ['token', '$.rewardDetails.address'],
  ['symbol', '$.rewardDetails.symbol'],
  ['decimals', '$.rewardDetails.decimals'],
  ['value', '$.rewardDetails.value'],
  ['currency', '$.rewardDetails.price.currencyCode'],
  ['price', '$.rewardDetails.price.value'],
  ['receipt', '$.receiptDelivered'],
  ['executed', '$.messageExecuted'],
] as const;

const FIELDS = `message_id, network, status, source_chain, destination_chain, source_ts, destination_ts,
  json_extract(raw, ${PATHS.map(([, p]) => `'${p}'`).join(', ')}) AS fields`;

type Extracted = Omit<RouteMessageRow, (typeof PATHS)[number][0]> & { fields: string };

function withFields(r: Extracted): RouteMessageRow {
  const values = JSON.parse(r.fields) as unknown[];
  const { fields: _f, ...columns } = r;
  return { ...columns, ...Object.fromEntries(PATHS.map(([name], i) => [name, values[i] ?? null])) } as RouteMessageRow;
}

/** The current data source's messages only: a relayer's figures and alerts are never computed from another source's. */
export class RouteMessages {
  private readonly stmts;

  constructor(
    db: Db,
    private readonly source: () => SourceKey,
  ) {
    this.stmts = {
      deliveredBetween: db.prepare<[number, number, string], Extracted>(
        `SELECT ${FIELDS} FROM messages WHERE destination_ts >= ? AND destination_ts < ? AND source = ? AND status IN ('delivered', 'delivered_source_not_indexed')`,
      ),
      // Only tracked ones: a message nobody watches any more is no longer re-checked, so its "pending" is stale.
      pending: db.prepare<[string], Extracted>(`SELECT ${FIELDS} FROM messages WHERE tracked = 1 AND source = ? AND status = 'pending'`),
      summaries: db.prepare<[string], SummaryRow>(`SELECT ${SUMMARY_COLUMNS} FROM messages WHERE message_id IN (SELECT value FROM json_each(?))`),
    };
  }

  /** Delivered messages whose destination transaction is at or after `sinceSec` and before `untilSec`, one row at a time (a busy day is 100,000s of rows). */
  *deliveredBetween(sinceSec: number, untilSec: number): IterableIterator<RouteMessageRow> {
    for (const r of this.stmts.deliveredBetween.iterate(sinceSec, untilSec, this.source())) yield withFields(r);
  }

  pendingTracked(): RouteMessageRow[] {
    return this.stmts.pending.all(this.source()).map(withFields);
  }

  /** Result rows of these messages, in the order given. */
  summaries(ids: readonly string[]): CacheSummary[] {
    const by = new Map(this.stmts.summaries.all(JSON.stringify(ids)).map((r) => [r.message_id, toSummary(r)]));
    return ids.map((id) => by.get(id)).filter((s): s is CacheSummary => s !== undefined);
  }
}
