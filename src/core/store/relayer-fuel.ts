/**
 * The last gas-balance read of each watched relayer's wallet per chain (`relayer_fuel`): kept so a
 * restart shows the figures at once, reads on the same schedule, and still tells a refill (a balance
 * higher than the previous read) from a quiet hour. Per data source: the demo's simulated wallets are
 * never shown, nor alerted on, as a real source's (and the other way round).
 */
import type { SourceKey } from '../../shared/sources';
import type { Db } from './database';

export interface FuelRead {
  /** Deliverer address, lowercase. */
  relayer: string;
  blockchainId: string;
  /** Wei of the last successful read (null: never read). */
  balance: bigint | null;
  symbol: string;
  decimals: number;
  usdPrice: number | null;
  /** Last successful read (ms). */
  readAt: number | null;
  /** Last attempt, successful or not (ms). */
  triedAt: number | null;
  /** The last attempt's failure (redacted by the caller), null when it succeeded. */
  readError: string | null;
}

interface Row {
  relayer: string;
  blockchain_id: string;
  balance: string | null;
  symbol: string;
  decimals: number;
  usd_price: number | null;
  read_at: number | null;
  tried_at: number | null;
  read_error: string | null;
}

export class RelayerFuelStore {
  private readonly stmts;

  constructor(
    db: Db,
    /** The current data source's key. */
    private readonly source: () => SourceKey,
  ) {
    this.stmts = {
      all: db.prepare<[string], Row>('SELECT * FROM relayer_fuel WHERE source = ?'),
      ok: db.prepare(
        `INSERT INTO relayer_fuel (source, relayer, blockchain_id, balance, symbol, decimals, usd_price, read_at, tried_at, read_error)
         VALUES (@source, @relayer, @blockchainId, @balance, @symbol, @decimals, @usdPrice, @at, @at, NULL)
         ON CONFLICT (source, relayer, blockchain_id) DO UPDATE SET balance = @balance, symbol = @symbol, decimals = @decimals,
           usd_price = @usdPrice, read_at = @at, tried_at = @at, read_error = NULL`,
      ),
      failed: db.prepare(
        `INSERT INTO relayer_fuel (source, relayer, blockchain_id, tried_at, read_error) VALUES (@source, @relayer, @blockchainId, @at, @error)
         ON CONFLICT (source, relayer, blockchain_id) DO UPDATE SET tried_at = @at, read_error = @error`,
      ),
      remove: db.prepare('DELETE FROM relayer_fuel WHERE source = ? AND relayer = ? AND blockchain_id = ?'),
    };
  }

  /** The current source's reads. */
  all(): FuelRead[] {
    return this.stmts.all.all(this.source()).map((r) => ({
      relayer: r.relayer,
      blockchainId: r.blockchain_id,
      balance: r.balance === null ? null : BigInt(r.balance),
      symbol: r.symbol,
      decimals: r.decimals,
      usdPrice: r.usd_price,
      readAt: r.read_at,
      triedAt: r.tried_at,
      readError: r.read_error,
    }));
  }

  recordRead(r: { relayer: string; blockchainId: string; balance: bigint; symbol: string; decimals: number; usdPrice: number | null; at: number }): void {
    this.stmts.ok.run({ ...r, source: this.source(), relayer: r.relayer.toLowerCase(), balance: r.balance.toString() });
  }

  recordFailure(r: { relayer: string; blockchainId: string; error: string; at: number }): void {
    this.stmts.failed.run({ ...r, source: this.source(), relayer: r.relayer.toLowerCase() });
  }

  /** A wallet no longer watched (its relayer unwatched, or no delivery there for a day). */
  remove(relayer: string, blockchainId: string): void {
    this.stmts.remove.run(this.source(), relayer.toLowerCase(), blockchainId);
  }
}
