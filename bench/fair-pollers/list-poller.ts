/**
 * The fair list poller: every interval, read the unfiltered list (one network) from its head down to
 * `depthMs` before now (the first read as far as the stuck threshold), deep enough to see every record still changing and every record that appears
 * late, and keep each watched message's state. Its reports are judged against the same ground truth.
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

/** How deep a cycle reads: `depthMs`, and for the first (silent) read back as far as the stuck threshold too (a message pending since then becomes `stuck` during the watch). */
export const readDepthMs = (silent: boolean, depthMs: number, o: FairPollerOptions): number =>
  silent ? Math.max(depthMs, o.firstReachMs ?? o.stuckMs ?? 0) : depthMs;

export class ListPoller {
  private readonly pool: Pool;
  private readonly tracker: TransitionTracker;
  requests = 0;
  /** Walks the service refused part of (429). */
  refused = 0;

  constructor(
    url: string,
    watched: Watched,
    private readonly clock: Clock,
    private readonly depthMs: number,
    private readonly o: FairPollerOptions = {},
  ) {
    this.pool = new Pool(url, { connections: 1 });
    this.tracker = new TransitionTracker(watched, o.stuckMs, o.receipts);
  }

  get detections() {
    return this.tracker.detections;
  }

  /** One interval's read (`silent` for the baseline). */
  async cycle(silent = false): Promise<void> {
    const now = this.clock.now();
    const depth = readDepthMs(silent, this.depthMs, this.o);
    if (silent) this.tracker.baseline(now - depth);
    const walk = await walkPages(this.pool, '/v1/teleporter/messages', now - depth, (r) => this.tracker.observe(r, now, silent), this.o.key);
    this.requests += walk.requests;
    if (walk.refused) this.refused++;
    if (!silent) this.tracker.sweep(now);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
