import { join } from 'node:path';
import { isMonitorMethod, parseMonitorInput, type InvokeResponse, type MonitorHandlers } from '../shared/contract';
import { systemClock } from '../shared/clock';
import { toErrorInfo } from '../shared/errors';
import type { MonitorCore, MonitorCoreOptions } from './monitor-core';
import { createLogger, type CoreLogger } from './log/logger';
import { favorMemoryOverSpeed } from './memory/favor-memory';
import { KeyStore } from './secrets/key-store';
import { createRedactor } from './secrets/redact';
import type { CoreContext } from './handlers/context';
import { DataSources } from './handlers/data-source';
import { createHandlers } from './handlers/contract-handlers';
import { importWatches } from './handlers/watchlist-import';
import { QuotaWarning } from './notify/quota-warning';
import { openStore, type Store } from './store';
import { dataFolderFault } from './store/open-fault';
import { TransitionEngine } from './watch/engine';
import { WatcherIndex } from './watch/watcher-index';
import { PartList } from './parts/part';
import { EventHub } from './parts/events';
import { retentionPart } from './parts/retention';
import { metricsPart } from './parts/metrics';
import { localServicePart } from './parts/local-service';
import { ownNodesPart } from './parts/own-nodes';
import { alertsPart } from './parts/alerts';
import { notificationsPart } from './parts/notifications';
import { pollingPart } from './parts/polling';
import { relayerAlertsPart } from './parts/relayer-alerts';
import { relayerEconomicsPart } from './parts/relayer-economics';
import { FuelMetrics } from './metrics/fuel-metrics';
import { RelayerMetrics } from './metrics/relayer-metrics';

/**
 * The core as one object: the MonitorApi handlers, an event stream, and start/close. It is the list of
 * parts below: start() starts them in this order, close() stops them in reverse (parts/part.ts).
 */
export async function createMonitorCore(options: MonitorCoreOptions): Promise<MonitorCore> {
  const clock = options.clock ?? systemClock;
  // One redactor for everything that leaves the core: log lines, call answers, events.
  const redactor = createRedactor();
  let logger: CoreLogger;
  let store: Store;
  try {
    logger = createLogger({
      file: join(options.dataDir, 'logs', 'core.log'),
      ...(options.logger ? { forward: options.logger } : {}),
      now: () => clock.now(),
      redactor,
    });
    store = openStore(options.dataDir);
  } catch (e) {
    // A read-only or full folder, a file in its place, a newer database: said so the user can act.
    throw dataFolderFault(options.dataDir, e);
  }
  const keys = new KeyStore(options.keychainService ?? 'teleporter-watch');
  if (options.apiKey) keys.useSessionKey(options.apiKey);
  const startupKey = keys.get();
  if (startupKey) logger.addSecret(startupKey);
  const settings = () => store.settings.get();
  // The index follows the watchlist by itself: every change of the watch store marks it stale.
  const index = new WatcherIndex(store.watches);
  const engine = new TransitionEngine(store, clock, index, settings, (line) => logger.warn(line));

  const parts = new PartList();
  parts.add({ name: 'log', stop: () => logger.close() });
  parts.add({ name: 'store', stop: () => store.close() });
  parts.add(retentionPart(store, clock, logger, settings));
  const events = parts.add(new EventHub(redactor, logger));
  const metrics = parts.add(
    metricsPart(options.metrics, {
      store,
      events,
      pollStatus: () => ownNodes.withChains(polling.poller.status()),
      sources: () => sources,
      alertsPending: () => alerts.dispatcher.pending(),
    }),
  ).registry;
  const localService = parts.add(localServicePart(options.localDataApi, options.dataDir, logger, settings));
  const ownNodes = parts.add(ownNodesPart(options.localDataApi, options.dataDir, logger, settings, events));
  const sources = new DataSources(
    clock,
    logger,
    settings,
    () => keys.get(),
    () => localService.url(),
    (o) => metrics?.observeRequest(o),
    () => ownNodes.url(),
    store.pollState,
  );
  parts.add({ name: 'data-sources', stop: () => sources.close() });
  const alerts = parts.add(
    alertsPart(options.alerts, {
      store,
      clock,
      logger,
      settings,
      events,
      sourceLink: (id) => `${sources.baseUrl() ?? ''}/v1/teleporter/messages/${id}`,
      onResult: (channel, outcome, count, error) => {
        metrics?.observeAlert(channel, outcome, count);
        options.alerts?.onDelivery?.({ channel, outcome, count, ...(error !== undefined ? { error: redactor.text(error) } : {}) });
      },
    }),
  );
  const { drainer } = parts.add(notificationsPart(store, clock, logger, options.notifier, events.emit));
  // The quota warning is logged always, and shown as a notification when notifications are on.
  const quotaWarning = new QuotaWarning(
    store.pollState,
    logger,
    (n) => (settings().notifications.enabled ? drainer.announce(n) : undefined),
    () => clock.now(),
  );
  const relayerMetrics = metrics ? new RelayerMetrics(metrics.registry, () => clock.now()) : undefined;
  const economics = parts.add(
    relayerEconomicsPart({
      store,
      clock,
      logger,
      settings,
      client: (network) => sources.client(network),
      emit: events.emit,
      redact: (t) => redactor.text(t),
      ownNodesUrl: () => ownNodes.url(),
      ...(metrics ? { metrics: new FuelMetrics(metrics.registry) } : {}),
    }),
  );
  const relayerAlerts = parts.add(
    relayerAlertsPart({ store, clock, logger, settings, tap: (now) => economics.tap(now), ...(relayerMetrics ? { metrics: relayerMetrics } : {}) }),
  );
  // A watch or feed going live (its baseline done) changes what the watchlist shows: said once per cycle.
  let wentLive = false;
  store.watches.onChange((what) => (wentLive ||= what === 'baseline'));
  const polling = parts.add(
    pollingPart({
      store,
      engine,
      index,
      clock,
      logger,
      settings,
      sources,
      emit: events.emit,
      autoPoll: options.autoPoll ?? true,
      withChains: (status) => ownNodes.withChains(status),
      afterBatch: async () => {
        await ownNodes.refresh();
        if (wentLive) {
          wentLive = false;
          events.emit({ type: 'watchlist-changed' });
        }
        relayerAlerts.evaluate();
        await economics.cycle();
        await drainer.drain();
        await quotaWarning.observe(polling.poller.status().quota);
        alerts.kick();
      },
    }),
  );

  const ctx: CoreContext = {
    options,
    clock,
    logger,
    store,
    keys,
    index,
    engine,
    poller: polling.poller,
    sources,
    settings,
    emit: events.emit,
    pollStatus: () => ownNodes.withChains(polling.poller.status()),
    economics: () => economics.economics(),
  };
  const handlers = createHandlers(ctx);
  let closed = false;

  return {
    handlers,
    async invoke(method: string, input: unknown): Promise<InvokeResponse> {
      if (!isMonitorMethod(method)) return { ok: false, error: { kind: 'invalid_input', message: `Unknown method "${method}".` } };
      try {
        const parsed = parseMonitorInput(method, input);
        const value = await (handlers[method] as (i: unknown) => unknown)(parsed);
        return redactor.value({ ok: true, value });
      } catch (e) {
        const error = toErrorInfo(e);
        if (error.kind === 'internal') logger.error('call failed', { method, error: e });
        return redactor.value({ ok: false, error });
      }
    },
    ...(metrics ? { metrics } : {}),
    async addWatches(watches) {
      return importWatches(ctx, watches);
    },
    onEvent: (listener) => events.onEvent(listener),
    attachNotifier: (notifier) => drainer.attach(notifier),
    async start() {
      // favorMemory: whether V8 took the flag that keeps the heap near its live size (see memory/favor-memory.ts).
      logger.info('core starting', { version: options.version, shell: options.shell, favorMemory: favorMemoryOverSpeed(), parts: parts.names });
      await parts.start();
    },
    async close() {
      if (closed) return;
      closed = true;
      await parts.stop();
    },
  };
}

export type { MonitorHandlers };
