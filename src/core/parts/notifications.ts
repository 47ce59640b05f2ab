import type { Clock } from '../../shared/clock';
import type { MonitorEvent } from '../../shared/contract';
import type { Logger } from '../log/logger';
import type { MonitorCoreOptions } from '../monitor-core';
import { OutboxDrainer } from '../notify/drainer';
import type { Store } from '../store';
import type { Part } from './part';

interface NotificationsPart extends Part {
  readonly drainer: OutboxDrainer;
  /** After each cycle: shows what the cycle put in the outbox. */
  afterCycle(): Promise<void>;
}

/**
 * The outbox's way to the shell's notifier. Started, it shows what was claimed before a crash (once,
 * same IDs); stopped, it makes a last drain so nothing acknowledged is left half done.
 */
export function notificationsPart(
  store: Store,
  clock: Clock,
  logger: Logger,
  notifier: MonitorCoreOptions['notifier'],
  emit: (e: MonitorEvent) => void,
): NotificationsPart {
  const drainer = new OutboxDrainer(store.outbox, clock, logger, notifier, emit);
  return {
    name: 'notifications',
    drainer,
    start: () => drainer.drain(),
    afterCycle: () => drainer.drain(),
    stop: () => drainer.drain().catch(() => {}),
  };
}
