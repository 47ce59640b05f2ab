import type { Transition, TransitionsEvent, WatchedAddress } from '../../shared/contract';
import { watchedAddressesOf } from '../../shared/transitions';

/**
 * Collects a poll cycle's transitions as the poller logs them (page by page, re-checks, the stuck
 * sweep) and hands them over as one event when the cycle ends, with the watched addresses they touched
 * as they now stand, so the UI applies one batch in place.
 */
export class TransitionBatch {
  private pending: Transition[] = [];

  constructor(private readonly watchOf: (address: string) => WatchedAddress | null) {}

  add(transitions: readonly Transition[]): void {
    this.pending.push(...transitions);
  }

  /** The batch so far as one event (null when the cycle logged nothing); starts a new batch. */
  take(): TransitionsEvent | null {
    if (this.pending.length === 0) return null;
    const transitions = this.pending;
    this.pending = [];
    const addresses = [...new Set(transitions.flatMap(watchedAddressesOf))];
    const watches = addresses.map(this.watchOf).filter((w): w is WatchedAddress => w !== null);
    return { type: 'transitions', transitions, watches };
  }
}
