import type { Clock } from '../../shared/clock';
import type { KeepUp, NotificationPayload, QuotaStatus, Settings } from '../../shared/contract';
import type { Logger } from '../log/logger';
import type { OutboxDrainer } from '../notify/drainer';
import { DailyWarning, KEEP_UP_WARNED_KEY, keepUpWarning, QUOTA_WARNED_KEY, quotaWarning } from '../notify/quota-warning';
import type { Store } from '../store';
import type { Part } from './part';

interface QuotaWarningPart extends Part {
  /** After each cycle: warns once a UTC day when the day's quota runs high or is spent. */
  afterCycle(): Promise<void>;
  /** With each poll status: warns once a UTC day when the plan does not keep up with the list. */
  observeKeepUp(k: KeepUp | null): void;
}

/** The quota warning: logged always, and shown as a notification when notifications are on. Nothing to start or stop. */
export function quotaWarningPart(d: {
  store: Store;
  clock: Clock;
  logger: Logger;
  settings: () => Settings;
  drainer: OutboxDrainer;
  /** The day's quota line now (the data source's budget). */
  quota: () => QuotaStatus | undefined;
}): QuotaWarningPart {
  const daily = <T>(key: string, text: (v: T) => Pick<NotificationPayload, 'title' | 'body'> | null) =>
    new DailyWarning(
      key,
      text,
      d.store.pollState,
      d.logger,
      (n) => (d.settings().notifications.enabled ? d.drainer.announce(n) : undefined),
      () => d.clock.now(),
    );
  const warning = daily(QUOTA_WARNED_KEY, quotaWarning);
  const keepUp = daily(KEEP_UP_WARNED_KEY, keepUpWarning);
  return { name: 'quota-warning', afterCycle: () => warning.observe(d.quota()), observeKeepUp: (k) => void keepUp.observe(k) };
}
