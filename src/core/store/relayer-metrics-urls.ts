/** Where each watched relayer's own Prometheus metrics are read (`relayer_metrics_urls`), by its address (any case). */
import type { Db } from './database';

export class RelayerMetricsUrls {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      all: db.prepare<[], { address: string; url: string }>('SELECT address, url FROM relayer_metrics_urls'),
      set: db.prepare('INSERT INTO relayer_metrics_urls (address, url) VALUES (?, ?) ON CONFLICT (address) DO UPDATE SET url = excluded.url'),
      clear: db.prepare('DELETE FROM relayer_metrics_urls WHERE address = ?'),
    };
  }

  /** URL by lower-case address. */
  all(): Map<string, string> {
    return new Map(this.stmts.all.all().map((r) => [r.address.toLowerCase(), r.url]));
  }

  set(address: string, url: string | null): void {
    if (url === null) this.stmts.clear.run(address);
    else this.stmts.set.run(address, url);
  }
}
