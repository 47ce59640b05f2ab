/** What each part that fires relayer episodes is given (relayer alerts, economics, the relayer's own view), built once in create-core. */
import type { Clock } from '../../shared/clock';
import type { Settings } from '../../shared/contract';
import type { Logger } from '../log/logger';
import type { Sight } from '../sources/sight';
import type { Store } from '../store';
import type { AlertTimeline } from './alert-timeline';

export interface EpisodeNeeds {
  store: Store;
  clock: Clock;
  logger: Logger;
  /** Where your own chains' names come from (a route is named by them), and the thresholds. */
  settings: () => Settings;
  /** Where episodes fire and resolve: listed in Activity, logged, announced while notifications are on. */
  timeline: Pick<AlertTimeline, 'open' | 'fire' | 'resolve'>;
  /** Whether the source and each chain are read now: what is not seen is held, never judged (default: sees everything). */
  sight?: Sight;
}

/** The needs from the parts made before (the log, the store, the alert timeline, the source's health). */
export function episodeNeeds(
  clock: Clock,
  made: {
    log: { logger: Logger };
    store: { store: Store; settings: () => Settings };
    alertTimeline: EpisodeNeeds['timeline'];
    sourceHealth: { health: Sight };
  },
): EpisodeNeeds {
  return {
    store: made.store.store,
    clock,
    logger: made.log.logger,
    settings: made.store.settings,
    timeline: made.alertTimeline,
    sight: made.sourceHealth.health,
  };
}
