/**
 * What every fair poller does: every interval, read each of its lists from the head down to `depthMs`
 * before now (the first read as far as the stuck threshold too), a few lists at a time, and keep each
 * watched message's state. The pollers differ only in their lists and how many they read at once.
 */
import { Pool } from 'undici';
import type { Clock } from '../../src/shared/clock';
import { walkPages } from './page-walk';
import { TransitionTracker, type Watched } from './transition-tracker';

/** A fair poller's own API key (its own quota at the service) and the stuck threshold it applies. */
export interface FairPollerOptions {
  key?: string;
  stuckMs?: number;
  /** False: a message is followed until its delivery only (route watches); default true. */
  receipts?: boolean;
  /** How far back the first read reaches (default: the stuck threshold). */
  firstReachMs?: number;
}

/** A list operation and its query filters (a route's source and destination chains). */
export interface ListRead {
  path: string;
  filter?: Record<string, string>;
}

/** How deep a cycle reads: `depthMs`, and for the first (silent) read back as far as the stuck threshold too (a message pending since then becomes `stuck` during the watch). */
export const readDepthMs = (silent: boolean, depthMs: number, o: FairPollerOptions): number =>
  silent ? Math.max(depthMs, o.firstReachMs ?? o.stuckMs ?? 0) : depthMs;

export class FairPoller {
  private readonly pool: Pool;
  private readonly tracker: TransitionTracker;
  requests = 0;
  /** Walks the service refused part of (429). */
  refused = 0;

  /** `connections`: the pool's sockets; `atOnce`: lists walked at the same time (each worker takes the next list). */
  constructor(
    url: string,
    private readonly lists: readonly ListRead[],
    watched: Watched,
    private readonly clock: Clock,
    private readonly depthMs: number,
    private readonly o: FairPollerOptions,
    private readonly concurrency: { connections: number; atOnce: number },
  ) {
    this.pool = new Pool(url, { connections: concurrency.connections });
    this.tracker = new TransitionTracker(watched, o.stuckMs, o.receipts);
  }

  get detections() {
    return this.tracker.detections;
  }

  /** One interval's read of every list (`silent` for the baseline). */
  async cycle(silent = false): Promise<void> {
    const now = this.clock.now();
    const depth = readDepthMs(silent, this.depthMs, this.o);
    if (silent) this.tracker.baseline(now - depth);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(this.concurrency.atOnce, this.lists.length) }, async () => {
        while (next < this.lists.length) {
          const l = this.lists[next++]!;
          const walk = await walkPages(this.pool, l.path, now - depth, (r) => this.tracker.observe(r, now, silent), this.o.key, l.filter);
          // Added after the await: `x += await y` would read x before the await and lose the other workers' counts.
          this.requests += walk.requests;
          if (walk.refused) this.refused++;
        }
      }),
    );
    if (!silent) this.tracker.sweep(now);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
