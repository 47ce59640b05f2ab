/**
 * Shows the notifications the core hands over (the core already decided which transitions fire and
 * coalesced bursts). A click brings the window forward at the message it is about.
 */
import type { Notification, NotificationConstructorOptions } from 'electron';
import type { NotificationPayload } from '../shared/contract';
import { visibleText } from '../shared/visible-text';

type NotificationLike = Pick<Notification, 'show' | 'on'>;

export interface NotificationBoundary {
  isSupported(): boolean;
  create(options: NotificationConstructorOptions): NotificationLike;
}

interface NotifierOptions {
  icon?: string;
  /** Called when the user clicks a notification. */
  onClick(payload: NotificationPayload): void;
  log?(message: string): void;
}

/**
 * Returns the core's `notifier`. Resolving acknowledges the payload (the core never shows it again),
 * so it resolves once shown, and also when the desktop has no notification service: retrying could
 * never succeed there.
 */
export function createNotifier(boundary: NotificationBoundary, opts: NotifierOptions): (payload: NotificationPayload) => Promise<void> {
  // Electron drops the click handler of a notification object that was garbage collected.
  const live = new Set<NotificationLike>();
  return async (payload) => {
    if (!boundary.isSupported()) {
      opts.log?.(`notifications are not supported on this desktop; skipped "${payload.title}"`);
      return;
    }
    // The core shows hidden characters already; the desktop's own notification is checked here too.
    const n = boundary.create({
      title: visibleText(payload.title),
      body: visibleText(payload.body),
      ...(opts.icon ? { icon: opts.icon } : {}),
    });
    live.add(n);
    n.on('click', () => {
      live.delete(n);
      opts.onClick(payload);
    });
    n.on('close', () => live.delete(n));
    n.on('failed', (_e, error) => {
      live.delete(n);
      opts.log?.(`notification failed: ${error}`);
    });
    n.show();
  };
}

/** What a click does: the window comes forward and, for a single message, the page opens it. */
export function focusEventFor(payload: NotificationPayload): { type: 'focus-message'; messageId: string } | null {
  return payload.messageId ? { type: 'focus-message', messageId: payload.messageId } : null;
}
