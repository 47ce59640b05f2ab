import type { NotificationPayload } from '../../shared/contract';
import { onMonitorEvent } from './client';
import { useUiStore } from './stores/ui';

/**
 * The web shell's system notifications (Electron's main process shows its own): only when the user
 * already granted permission, for we never prompt. Returns the unsubscribe function.
 */
export function showNotificationsInBrowser(): () => void {
  const ui = useUiStore();
  return onMonitorEvent('notification', (e) => show(e.notification, (id) => void ui.openMessageById(id)));
}

function show(n: NotificationPayload, open: (messageId: string) => void): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  if (typeof document !== 'undefined' && document.visibilityState === 'visible' && document.hasFocus()) return; // the in-app toast suffices
  const notification = new Notification(n.title, { body: n.body, tag: `tw-${n.id}` });
  notification.onclick = () => {
    window.focus();
    if (n.messageId) open(n.messageId);
  };
}
