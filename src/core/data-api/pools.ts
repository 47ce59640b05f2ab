import { Pool } from 'undici';
import { DATA_API_CONNECTIONS } from '../../shared/policy';

/** One keep-alive connection pool per origin, shared by every client of that origin. */
export class PoolRegistry {
  private pools = new Map<string, Pool>();

  get(baseUrl: string): Pool {
    const origin = new URL(baseUrl).origin;
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, { connections: DATA_API_CONNECTIONS, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 120_000, pipelining: 1 });
      this.pools.set(origin, pool);
    }
    return pool;
  }

  async close(): Promise<void> {
    const all = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(all.map((p) => p.close().catch(() => p.destroy())));
  }
}
