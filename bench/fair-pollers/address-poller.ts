/**
 * The per-address baseline: every interval, read each watched address's messages from the head, paging
 * down to `depthMs` before now (a busy address needs many pages, a quiet one one), 16 requests at a
 * time. Its reports are judged against the same ground truth.
 */
import { Pool } from 'undici';
import type { Clock } from '../../src/shared/clock';
import { walkPages } from './page-walk';
import { TransitionTracker } from './transition-tracker';

const CONCURRENCY = 16;

export class AddressPoller {
  private readonly pool: Pool;
  private readonly tracker: TransitionTracker;
  requests = 0;

  constructor(
    url: string,
    private readonly addresses: readonly string[],
    private readonly clock: Clock,
    private readonly depthMs: number,
  ) {
    this.pool = new Pool(url, { connections: CONCURRENCY });
    this.tracker = new TransitionTracker(addresses);
  }

  get detections() {
    return this.tracker.detections;
  }

  /** One interval's read of every address (`silent` for the baseline). */
  async cycle(silent = false): Promise<void> {
    const now = this.clock.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < this.addresses.length) {
          const a = this.addresses[next++]!;
          // Awaited first, then added: `x += await y` would read x before the await and lose the other workers' counts.
          const n = await walkPages(this.pool, `/v1/teleporter/addresses/${a}/messages`, now - this.depthMs, (r) => this.tracker.observe(r, now, silent));
          this.requests += n;
        }
      }),
    );
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
