import { createApp } from 'vue';
import { createPinia } from 'pinia';
import { createMonitorClient } from './transport/monitor-client';
import { MonitorError } from '../../shared/errors';
import App from './App.vue';
import './styles/base.css';
import { installMonitor } from './client';
import { showNotificationsInBrowser } from './browser-notifications';
import { ownConnection } from './connection';
import { useActivityStore } from './stores/activity';
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

  // Each store subscribes to the events it needs when it is created: these listen from the start.
  useActivityStore(); // toasts and the live Activity list
  useUiStore(); // focus-message from a clicked desktop notification
  if (!window.monitor) showNotificationsInBrowser();
  // Loads every store now, again after a reconnect or a data-source change (each keeps its own error).
  ownConnection(picked.web);

  app.mount('#app');
}
