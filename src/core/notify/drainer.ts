import type { MonitorEvent, NotificationPayload } from '../../shared/api';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../facade';
import type { OutboxStore } from '../store/outbox-store';

/**
 * Shows what the outbox holds through the shell's notifier, one drain at a time. A batch is
 * acknowledged only after the notifier resolves; a failed one stays and is tried on the next drain.
 */
export class OutboxDrainer {
  private draining: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly outbox: OutboxStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly notifier: ((n: NotificationPayload) => Promise<void> | void) | undefined,
    private readonly emit: (e: MonitorEvent) => void,
  ) {}

  drain(): Promise<void> {
    if (this.draining) {
      this.again = true;
      return this.draining;
    }
    this.draining = (async () => {
      do {
        this.again = false;
        await this.drainOnce();
      } while (this.again);
    })().finally(() => {
      this.draining = null;
    });
    return this.draining;
  }

  private async drainOnce(): Promise<void> {
    for (const n of this.outbox.claim()) {
      try {
        await this.notifier?.(n);
      } catch (e) {
        this.logger.warn('notification not shown; will retry', { id: n.id, error: e });
        return;
      }
      this.outbox.ack(n.id, this.clock.now());
      this.emit({ type: 'notification', notification: n });
    }
  }
}
