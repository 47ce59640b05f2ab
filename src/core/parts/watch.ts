import type { Clock } from '../../shared/clock';
import type { Logger } from '../log/logger';
import type { StorePart } from './store';
import { TransitionEngine } from '../watch/engine';
import { WatcherIndex } from '../watch/watcher-index';
import type { Part } from './part';

interface WatchPart extends Part {
  /** Which watch, feed or watched route each address and chain belongs to. */
  readonly index: WatcherIndex;
  /** Turns each record read into the transitions it makes (once each, state only forward). */
  readonly engine: TransitionEngine;
}

/**
 * The watcher index and the transition engine (`watch/`). The index follows the watchlist by itself:
 * every change of the watch store marks it stale. Nothing to start or stop.
 */
export function watchPart(s: StorePart, clock: Clock, logger: Logger): WatchPart {
  const index = new WatcherIndex(s.store.watches);
  const engine = new TransitionEngine(s.store, clock, index, s.settings, (line) => logger.warn(line));
  return { name: 'watch', index, engine };
}
