import type { NotifyKind, Settings, TransitionKind } from '../../shared/contract';
import type { WatcherInfo } from '../store/watch-store';

/**
 * Whether a transition is announced (desktop notification and in-app toast): notifications are on,
 * and at least one live watcher asked for this kind in its "Notify on" choices.
 */
export function notifies(settings: Settings, live: readonly WatcherInfo[], kind: TransitionKind): boolean {
  const choice = CHOICE_OF[kind];
  return settings.notifications.enabled && live.some((w) => w.notify[choice]);
}

/** An undone delivery or receipt is announced to whoever asked to hear of the delivery or receipt. */
const CHOICE_OF: Record<TransitionKind, NotifyKind> = {
  new: 'new',
  left_pending: 'left_pending',
  receipt_delivered: 'receipt_delivered',
  stuck: 'stuck',
  delivery_undone: 'left_pending',
  receipt_undone: 'receipt_delivered',
};
