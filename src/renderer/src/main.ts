import { createApp } from 'vue';
import { createPinia } from 'pinia';
import { createMonitorClient } from '../../shared/contract';
import { MonitorError } from '../../shared/errors';
import App from './App.vue';
import './styles/base.css';
import { installMonitor } from './client';
import { showNotificationsInBrowser } from './browser-notifications';
import { cutOverOnSourceChange } from './source-cut';
import { useActivityStore } from './stores/activity';
import { useDemoStore } from './stores/demo';
import { useSettingsStore } from './stores/settings';
import { useStatusStore } from './stores/status';
import { useWatchlistStore } from './stores/watchlist';
import { pickTransport, type PickedTransport } from './transport/pick';
import MissingToken from './components/MissingToken.vue';
import { useUiStore, viewFromHash } from './stores/ui';
import { preloadView } from './views/lazy';

// Fetch the opened view's chunk first, before the startup calls and while the shell mounts.
preloadView(viewFromHash(window.location.hash));

const picked = pickTransport();
if (picked) startApp(picked);
else createApp(MissingToken).mount('#app');

function startApp(picked: PickedTransport): void {
  const api = createMonitorClient(picked.transport, (e) => new MonitorError(e));
  installMonitor(api);

  const app = createApp(App);
  app.use(createPinia());

  const status = useStatusStore();
  if (picked.web) {
    status.setConnection(picked.web.connection());
    picked.web.onConnection((c) => status.setConnection(c));
  }
  // Each store subscribes to the events it needs when it is created: these listen from the start.
  useActivityStore(); // toasts and the live Activity list
  useUiStore(); // focus-message from a clicked desktop notification
  cutOverOnSourceChange();
  if (!window.monitor) showNotificationsInBrowser();
  // Each load keeps its own error for its view (none of them rejects).
  void status.load();
  void useSettingsStore().load();
  void useWatchlistStore().load();
  void useDemoStore().load();

  app.mount('#app');
}
