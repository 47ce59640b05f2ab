import type { Clock } from '../../shared/clock';
import { PRUNE_EVERY_MS } from '../../shared/policy';
import type { Settings } from '../../shared/contract';
import type { Logger } from '../log/logger';
import type { Store } from '../store';
import type { Part } from './part';
import { DAY_MS } from '../../shared/time';

/** Lets go of what `retentionDays` no longer keeps: once at start, then every 6 hours. */
export function retentionPart(store: Store, clock: Clock, logger: Logger, settings: () => Settings): Part {
  let cancel: (() => void) | null = null;
  const prune = () => {
    const r = store.pruner.prune(clock.now() - settings().retentionDays * DAY_MS);
    if (r.messages || r.transitions) logger.info('pruned old data', r);
    cancel = clock.setTimer(prune, PRUNE_EVERY_MS);
  };
  return {
    name: 'retention',
    start: prune,
    stop: () => cancel?.(),
  };
}
