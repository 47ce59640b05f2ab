import type { Settings, TransitionKind } from '../../shared/contract';
import type { WatcherInfo } from '../store/watch-store';

/**
 * Whether a transition is announced (desktop notification and in-app toast): notifications are on,
 * and at least one live watcher asked for this kind in its "Notify on" choices.
 */
export function notifies(settings: Settings, live: readonly WatcherInfo[], kind: TransitionKind): boolean {
  return settings.notifications.enabled && live.some((w) => w.notify[kind]);
}
