/**
 * Read-only: the cached messages the relayer figures count (deliveries by destination time, pending
 * messages still tracked), as the few fields they need, extracted inside SQLite (no record parsed in JS).
 */
import type { CacheSummary } from '../../shared/contract';
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
}

const FIELDS = `message_id, network, status, source_chain, destination_chain, source_ts, destination_ts,
  json_extract(raw, '$.sourceEvmChainId') AS source_evm, json_extract(raw, '$.destinationEvmChainId') AS destination_evm,
  json_extract(raw, '$.destinationTransaction.delivererAddress') AS deliverer,
  json_extract(raw, '$.destinationTransaction.rewardRedeemer') AS reward_address,
  json_extract(raw, '$.destinationTransaction.gasSpent') AS gas,
  json_extract(raw, '$.rewardDetails.address') AS token, json_extract(raw, '$.rewardDetails.symbol') AS symbol,
  json_extract(raw, '$.rewardDetails.decimals') AS decimals, json_extract(raw, '$.rewardDetails.value') AS value,
  json_extract(raw, '$.rewardDetails.price.currencyCode') AS currency, json_extract(raw, '$.rewardDetails.price.value') AS price`;

export class RouteMessages {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      deliveredSince: db.prepare<[number], RouteMessageRow>(
        `SELECT ${FIELDS} FROM messages WHERE destination_ts >= ? AND status IN ('delivered', 'delivered_source_not_indexed')`,
      ),
      // Only tracked ones: a message nobody watches any more is no longer re-checked, so its "pending" is stale.
      pending: db.prepare<[], RouteMessageRow>(`SELECT ${FIELDS} FROM messages WHERE tracked = 1 AND status = 'pending'`),
      summaries: db.prepare<[string], SummaryRow>(`SELECT ${SUMMARY_COLUMNS} FROM messages WHERE message_id IN (SELECT value FROM json_each(?))`),
    };
  }

  /** Delivered messages whose destination transaction is at or after `sinceSec`. */
  deliveredSince(sinceSec: number): RouteMessageRow[] {
    return this.stmts.deliveredSince.all(sinceSec);
  }

  pendingTracked(): RouteMessageRow[] {
    return this.stmts.pending.all();
  }

  /** Result rows of these messages, in the order given. */
  summaries(ids: readonly string[]): CacheSummary[] {
    const by = new Map(this.stmts.summaries.all(JSON.stringify(ids)).map((r) => [r.message_id, toSummary(r)]));
    return ids.map((id) => by.get(id)).filter((s): s is CacheSummary => s !== undefined);
  }
}
