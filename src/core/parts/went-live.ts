import type { MonitorEvent } from '../../shared/contract';
import type { Store } from '../store';
import type { Part } from './part';

interface WentLivePart extends Part {
  /** After each cycle: `watchlist-changed` when a watch or feed went live during it. */
  afterCycle(): void;
}

/**
 * A watch or feed going live (its baseline done) changes what the watchlist shows: said once per
 * cycle, however many went live. Nothing to start or stop.
 */
export function wentLivePart(store: Store, emit: (e: MonitorEvent) => void): WentLivePart {
  let wentLive = false;
  store.watches.onChange((what) => (wentLive ||= what === 'baseline'));
  return {
    name: 'went-live',
    afterCycle() {
      if (!wentLive) return;
      wentLive = false;
      emit({ type: 'watchlist-changed' });
    },
  };
}
