/**
 * The fair per-address poller: every interval, read each watched address's messages from the head,
 * paging down to `depthMs` before now (a busy address needs many pages, a quiet one one), 16 requests
 * at a time. Its reports are judged against the same ground truth.
 */
import type { Clock } from '../../src/shared/clock';
import { FairPoller, type FairPollerOptions } from './fair-poller';

const CONCURRENCY = 16;

export class AddressPoller extends FairPoller {
  constructor(url: string, addresses: readonly string[], clock: Clock, depthMs: number, o: FairPollerOptions = {}) {
    const lists = addresses.map((a) => ({ path: `/v1/teleporter/addresses/${a}/messages` }));
    super(url, lists, addresses, clock, depthMs, o, { connections: CONCURRENCY, atOnce: CONCURRENCY });
  }
}
