import type { MonitorEvent, NotificationPayload } from '../../shared/contract';
import type { Clock } from '../../shared/clock';
import { visibleText } from '../../shared/visible-text';
import type { Logger } from '../log/logger';
import type { OutboxStore } from '../store/outbox-store';

type Notifier = (n: NotificationPayload) => Promise<void> | void;

/** What a person reads: a relayer's label, a chain's name or a token's symbol in it shows its hidden characters. */
const shown = (n: NotificationPayload): NotificationPayload => ({ ...n, title: visibleText(n.title), body: visibleText(n.body) });

/**
 * Shows what the outbox holds through the shell's notifier, one drain at a time. A batch is
 * acknowledged only after the notifier resolves; a failed one stays and is tried on the next drain.
 * With no notifier attached (a web host with no page open) nothing is claimed: the outbox keeps
 * every notification until one attaches, and then shows them (coalesced when there are many).
 */
export class OutboxDrainer {
  private draining: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly outbox: OutboxStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private notifier: Notifier | undefined,
    private readonly emit: (e: MonitorEvent) => void,
  ) {}

  /** Attaches the notifier (replacing any) and shows what waits; the returned function detaches it. */
  attach(notifier: Notifier): () => void {
    this.notifier = notifier;
    void this.drain().catch((e: unknown) => this.logger.warn('outbox drain failed', { error: e }));
    return () => {
      if (this.notifier === notifier) this.notifier = undefined;
    };
  }

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

  /**
   * Shows a notice that is no transition (the quota warning) at once, outside the outbox: a negative
   * ID so it never meets an outbox row; not retried (the status bar keeps saying it).
   */
  async announce(n: Pick<NotificationPayload, 'title' | 'body'>): Promise<void> {
    const payload = shown({ id: -++this.notices, title: n.title, body: n.body, transitionIds: [] });
    try {
      await this.notifier?.(payload);
    } catch (e) {
      this.logger.warn('notice not shown', { error: e });
    }
    this.emit({ type: 'notification', notification: payload });
  }
  private notices = 0;

  private async drainOnce(): Promise<void> {
    if (!this.notifier) return;
    for (const n of this.outbox.claim().map(shown)) {
      const notifier = this.notifier;
      if (!notifier) return; // detached mid-drain: the claimed rest is shown (same IDs) on the next attach
      try {
        await notifier(n);
      } catch (e) {
        this.logger.warn('notification not shown; will retry', { id: n.id, error: e });
        return;
      }
      this.outbox.ack(n.id, this.clock.now());
      this.emit({ type: 'notification', notification: n });
    }
  }
}
