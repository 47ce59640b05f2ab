import type { MonitorApi, MonitorEvent, NotificationPayload } from '../../shared/contract';
import { watch } from 'vue';
import type { Network } from '../../shared/validators';
import { sourceKey } from './logic/source-change';
import { useActivityStore } from './stores/activity';
import { useCacheStore } from './stores/cache';
import { useChartsStore } from './stores/charts';
import { useDemoStore } from './stores/demo';
import { useMessagesStore } from './stores/messages';
import { useRelayersStore } from './stores/relayers';
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
  const messages = useMessagesStore();
  const relayers = useRelayersStore();
  // Whichever arrives first (the save's answer or the settings-changed event) updates the settings.
  const stopCut = watch(
    () => (settings.settings ? sourceKey(settings.settings) : null),
    (key, old) => {
      if (old && key && key !== old && settings.settings) cutOver(settings.settings.network);
    },
  );
  const unsubscribe = api.onEvent((e: MonitorEvent) => {
    status.handleEvent(e);
    settings.handleEvent(e);
    watchlist.handleEvent(e);
    activity.handleEvent(e);
    demo.handleEvent(e);
    messages.handleEvent(e);
    relayers.handleEvent(e);
    if (e.type === 'focus-message') void ui.openMessageById(e.messageId);
    if (e.type === 'notification' && opts.systemNotifications) showBrowserNotification(e.notification, (id) => void ui.openMessageById(id));
  });
  return () => {
    stopCut();
    unsubscribe();
  };
}

/** A data-source change is a clean cut: every list, error and status reloads from the new source. */
function cutOver(network: Network): void {
  const messages = useMessagesStore();
  const watchlist = useWatchlistStore();
  void messages.sourceChanged(network);
  watchlist.close();
  void watchlist.load();
  void useActivityStore().load();
  const cache = useCacheStore();
  if (cache.loaded) void cache.search();
  const charts = useChartsStore();
  if (charts.stats) void charts.load();
  const relayers = useRelayersStore();
  if (relayers.loaded) void relayers.load();
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
