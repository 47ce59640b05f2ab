/**
 * The fair baseline: every interval, read the unfiltered list (one network) from its head down to
 * `depthMs` before now, deep enough to see every record still changing and every record that appears
 * late, and keep each watched message's state. Its reports are judged against the same ground truth.
 */
import { Pool } from 'undici';
import type { Clock } from '../../src/shared/clock';
import { walkPages } from './page-walk';
import { TransitionTracker } from './transition-tracker';

export class ListPoller {
  private readonly pool: Pool;
  private readonly tracker: TransitionTracker;
  requests = 0;

  constructor(
    url: string,
    watched: readonly string[],
    private readonly clock: Clock,
    private readonly depthMs: number,
  ) {
    this.pool = new Pool(url, { connections: 1 });
    this.tracker = new TransitionTracker(watched);
  }

  get detections() {
    return this.tracker.detections;
  }

  /** One interval's read (`silent` for the baseline). */
  async cycle(silent = false): Promise<void> {
    const now = this.clock.now();
    this.requests += await walkPages(this.pool, '/v1/teleporter/messages', now - this.depthMs, (r) => this.tracker.observe(r, now, silent));
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
