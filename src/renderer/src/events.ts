import type { MonitorApi, MonitorEvent, NotificationPayload } from '../../shared/api';
import { useActivityStore } from './stores/activity';
import { useDemoStore } from './stores/demo';
import { useSettingsStore } from './stores/settings';
import { useStatusStore } from './stores/status';
import { useUiStore } from './stores/ui';
import { useWatchlistStore } from './stores/watchlist';

/** Routes every core event to the stores that care; returns the unsubscribe function. */
export function routeEvents(api: MonitorApi, opts: { systemNotifications: boolean }): () => void {
  const status = useStatusStore();
  const settings = useSettingsStore();
  const watchlist = useWatchlistStore();
  const activity = useActivityStore();
  const ui = useUiStore();
  const demo = useDemoStore();
  return api.onEvent((e: MonitorEvent) => {
    status.handleEvent(e);
    settings.handleEvent(e);
    watchlist.handleEvent(e);
    activity.handleEvent(e);
    demo.handleEvent(e);
    if (e.type === 'transition' && watchlist.loaded) {
      // Unread counts change as transitions arrive for watched addresses.
      if (e.transition.watchers.some((w) => !w.startsWith('feed:'))) void watchlist.load();
    }
    if (e.type === 'focus-message') void ui.openMessageById(e.messageId);
    if (e.type === 'notification' && opts.systemNotifications) showBrowserNotification(e.notification, (id) => void ui.openMessageById(id));
  });
}

/** In the web shell only, and only when the user already granted permission: we never prompt. */
function showBrowserNotification(n: NotificationPayload, open: (messageId: string) => void): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  if (typeof document !== 'undefined' && document.visibilityState === 'visible' && document.hasFocus()) return; // the in-app toast suffices
  const notification = new Notification(n.title, { body: n.body, tag: `tw-${n.id}` });
  notification.onclick = () => {
    window.focus();
    if (n.messageId) open(n.messageId);
  };
}
