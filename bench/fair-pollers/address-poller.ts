/**
 * The fair per-address poller: every interval, read each watched address's messages from the head,
 * paging down to `depthMs` before now (a busy address needs many pages, a quiet one one), 16 requests
 * at a time. Its reports are judged against the same ground truth.
 */
import { Pool } from 'undici';
import type { Clock } from '../../src/shared/clock';
import type { FairPollerOptions } from './list-poller';
import { walkPages } from './page-walk';
import { TransitionTracker } from './transition-tracker';

const CONCURRENCY = 16;

export class AddressPoller {
  private readonly pool: Pool;
  private readonly tracker: TransitionTracker;
  requests = 0;
  /** Walks the service refused part of (429). */
  refused = 0;

  constructor(
    url: string,
    private readonly addresses: readonly string[],
    private readonly clock: Clock,
    private readonly depthMs: number,
    private readonly o: FairPollerOptions = {},
  ) {
    this.pool = new Pool(url, { connections: CONCURRENCY });
    this.tracker = new TransitionTracker(addresses, o.stuckMs);
  }

  get detections() {
    return this.tracker.detections;
  }

  /** One interval's read of every address (`silent` for the baseline). */
  async cycle(silent = false): Promise<void> {
    const now = this.clock.now();
    // The first read reaches back as far as the stuck threshold too: a message pending since then becomes `stuck` during the watch.
    const depth = silent ? Math.max(this.depthMs, this.o.stuckMs ?? 0) : this.depthMs;
    if (silent) this.tracker.baseline(now - depth);
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < this.addresses.length) {
          const a = this.addresses[next++]!;
          const walk = await walkPages(
            this.pool,
            `/v1/teleporter/addresses/${a}/messages`,
            now - depth,
            (r) => this.tracker.observe(r, now, silent),
            this.o.key,
          );
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
