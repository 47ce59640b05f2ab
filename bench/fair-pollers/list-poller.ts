/**
 * The fair list poller: every interval, read the unfiltered list (one network) from its head down to
 * `depthMs` before now (the first read as far as the stuck threshold), deep enough to see every record still changing and every record that appears
 * late, and keep each watched message's state. Its reports are judged against the same ground truth.
 */
import type { Clock } from '../../src/shared/clock';
import { FairPoller, type FairPollerOptions } from './fair-poller';
import type { Watched } from './transition-tracker';

export class ListPoller extends FairPoller {
  constructor(url: string, watched: Watched, clock: Clock, depthMs: number, o: FairPollerOptions = {}) {
    super(url, [{ path: '/v1/teleporter/messages' }], watched, clock, depthMs, o, { connections: 1, atOnce: 1 });
  }
}
