/**
 * The fair per-watch poller of the grid's routes-and-relayers row: every interval, one list per watch read
 * from its head down to `depthMs` before now: each route's list filtered on its source and destination
 * chains, each relayer's address list. What it reads is judged against the same ground truth as the core
 * (a route's messages until their delivery; a relayer's deliveries on the watched routes are among them).
 */
import { Pool } from 'undici';
import type { Clock } from '../../src/shared/clock';
import { readDepthMs, type FairPollerOptions } from './list-poller';
import { walkPages } from './page-walk';
import { TransitionTracker, type Watched } from './transition-tracker';

/** A route by its chains' blockchain IDs. */
export interface RouteFilter {
  sourceBlockchainId: string;
  destinationBlockchainId: string;
}

export class WatchPoller {
  private readonly pool: Pool;
  private readonly tracker: TransitionTracker;
  private readonly lists: { path: string; filter: Record<string, string> }[];
  requests = 0;
  /** Walks the service refused part of (429). */
  refused = 0;

  constructor(
    url: string,
    routes: readonly RouteFilter[],
    relayers: readonly string[],
    watched: Watched,
    private readonly clock: Clock,
    private readonly depthMs: number,
    private readonly o: FairPollerOptions = {},
  ) {
    this.pool = new Pool(url, { connections: 4 });
    this.tracker = new TransitionTracker(watched, o.stuckMs, o.receipts);
    this.lists = [
      ...routes.map((r) => ({ path: '/v1/teleporter/messages', filter: { ...r } })),
      ...relayers.map((a) => ({ path: `/v1/teleporter/addresses/${a}/messages`, filter: {} })),
    ];
  }

  get detections() {
    return this.tracker.detections;
  }

  /** One interval's read of every watch's list (`silent` for the baseline). */
  async cycle(silent = false): Promise<void> {
    const now = this.clock.now();
    const depth = readDepthMs(silent, this.depthMs, this.o);
    if (silent) this.tracker.baseline(now - depth);
    const walks = await Promise.all(
      this.lists.map((l) => walkPages(this.pool, l.path, now - depth, (r) => this.tracker.observe(r, now, silent), this.o.key, l.filter)),
    );
    for (const w of walks) {
      this.requests += w.requests;
      if (w.refused) this.refused++;
    }
    if (!silent) this.tracker.sweep(now);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
