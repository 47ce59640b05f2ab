import { join } from 'node:path';
import { isMonitorMethod, parseMonitorInput, type InvokeResponse, type MonitorEvent, type MonitorHandlers, type PollStatus } from '../shared/contract';
import { alertChannelKey } from '../shared/alert-schemas';
import { systemClock } from '../shared/clock';
import { toErrorInfo } from '../shared/errors';
import type { MonitorCore, MonitorCoreOptions } from './monitor-core';
import { LocalDataApiLauncher } from './local-data-api/launcher';
import { OwnNodesService } from './own-nodes/own-nodes-service';
import { createLogger, type CoreLogger } from './log/logger';
import { HeapCompactor } from './memory/heap-compactor';
import { AlertDispatcher } from './alerts/dispatcher';
import { CoreMetrics } from './metrics/core-metrics';
import { OutboxDrainer } from './notify/drainer';
import { Poller } from './poller/poller';
import { KeyStore } from './secrets/key-store';
import { createRedactor } from './secrets/redact';
import type { CoreContext } from './handlers/context';
import { DataSources } from './handlers/data-source';
import { createHandlers } from './handlers/contract-handlers';
import { importWatches } from './handlers/watchlist-import';
import { openStore, type Store } from './store';
import { MetricsQueries } from './store/metrics-queries';
import { dataFolderFault } from './store/open-fault';
import { TransitionEngine } from './watch/engine';
import { TransitionBatch } from './watch/transition-batch';
import { WatcherIndex } from './watch/watcher-index';

const PRUNE_EVERY_MS = 6 * 3600_000;

/** The core as one object: the MonitorApi handlers, an event stream, and start/close. */
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

  const listeners = new Set<(e: MonitorEvent) => void>();
  let metrics: CoreMetrics | undefined;
  const emit = (event: MonitorEvent) => {
    if (event.type === 'settings-changed') onSettingsChanged();
    const e = redactor.value(event);
    metrics?.observeEvent(e);
    for (const l of listeners) {
      try {
        l(e);
      } catch (err) {
        logger.warn('event listener failed', { error: err });
      }
    }
  };

  const settings = () => store.settings.get();
  // The index follows the watchlist by itself: every change of the watch store marks it stale.
  const index = new WatcherIndex(store.watches);
  const engine = new TransitionEngine(store, clock, index, settings);

  let launcher: LocalDataApiLauncher | null = null;
  const spec = options.localDataApi;
  if (spec?.kind === 'spawn') launcher = new LocalDataApiLauncher(spec, options.dataDir, logger);
  const localUrl = () => (spec?.kind === 'url' ? spec.url : (launcher?.url() ?? null));
  const ownNodes = spec?.kind === 'spawn' ? new OwnNodesService(spec, options.dataDir, logger) : null;
  // Own nodes run in a service of their own, started with the saved chains (again when they change).
  const withOwnNodes = (status: PollStatus): PollStatus => {
    const own = settings().dataSource.kind === 'ownNodes' ? ownNodes?.statuses() : null;
    return own ? { ...status, ownNodes: own } : status;
  };
  const followOwnNodes = async () => {
    const ds = settings().dataSource;
    try {
      if (ds.kind === 'ownNodes') await ownNodes?.ensure(ds.ownNodes);
      else await ownNodes?.stop();
    } catch (e) {
      logger.error('the own-nodes service did not start', { error: e });
    }
  };
  const sources = new DataSources(
    clock,
    logger,
    settings,
    () => keys.get(),
    localUrl,
    (o) => metrics?.observeRequest(o),
    () => ownNodes?.url() ?? null,
  );
  const drainer = new OutboxDrainer(store.outbox, clock, logger, options.notifier, emit);
  // Channels from the options (headless config) plus those in settings (the desktop's Settings page).
  const fixedChannels = options.alerts?.channels ?? [];
  const fixedKeys = new Set(fixedChannels.map(alertChannelKey));
  // A settings channel that is also in the config is sent to once (the config's wins).
  const alertChannels = () => [...fixedChannels, ...settings().alertChannels.filter((c) => !fixedKeys.has(alertChannelKey(c)))];
  const alerts = new AlertDispatcher(store.db, clock, logger, {
    channels: alertChannels(),
    messageLink: options.alerts?.messageLink ?? ((id) => `${sources.baseUrl() ?? ''}/v1/teleporter/messages/${id}`),
    ...(options.alerts?.retryBaseMs !== undefined ? { retryBaseMs: options.alerts.retryBaseMs } : {}),
    ...(options.alerts?.maxRetryMs !== undefined ? { maxRetryMs: options.alerts.maxRetryMs } : {}),
    onResult: (channel, outcome, n) => metrics?.observeAlert(channel, outcome, n),
  });
  let appliedChannels = JSON.stringify(alertChannels());
  const onSettingsChanged = () => {
    void followOwnNodes();
    const next = alertChannels();
    if (JSON.stringify(next) === appliedChannels) return;
    appliedChannels = JSON.stringify(next);
    alerts.setChannels(next).catch((e: unknown) => logger.error('alert delivery failed', { error: e }));
  };
  // Alert receivers may be slow or down: their retries never hold up a poll cycle (close() waits for them).
  const drainAll = async () => {
    await drainer.drain();
    alerts.drain().catch((e: unknown) => logger.error('alert delivery failed', { error: e }));
  };

  const compactor = new HeapCompactor();
  // A cycle's transitions leave the core as one event, before that cycle's notifications.
  const batch = new TransitionBatch((address) => store.watches.getWatch(address));
  const poller = new Poller({
    store,
    engine,
    index,
    clock,
    logger,
    settings,
    client: (network) => sources.client(network),
    budget: () => sources.budget(),
    onTransitions: (ts) => batch.add(ts),
    onStatus: (status) => emit({ type: 'poll-status', status: withOwnNodes(status) }),
    afterCycle: async () => {
      if (settings().dataSource.kind === 'ownNodes') await ownNodes?.refresh();
      const batched = batch.take();
      if (batched) emit(batched);
      await drainAll();
      const t0 = performance.now();
      if (compactor.compactIfGrown()) logger.debug('heap compacted after a poll cycle', { ms: Math.round(performance.now() - t0) });
    },
  });

  const pollStatus = () => withOwnNodes(poller.status());
  const ctx: CoreContext = { options, clock, logger, store, keys, index, engine, poller, sources, settings, emit, pollStatus };
  const handlers = createHandlers(ctx);
  if (options.metrics) {
    metrics = new CoreMetrics(
      {
        queries: new MetricsQueries(store.db),
        pollStatus,
        rateLimitRemaining: () => {
          const remaining = sources.budget().serverRemainingNow();
          const base = sources.baseUrl();
          return remaining === null || !base ? null : { host: new URL(base).host, remaining };
        },
        alertsPending: () => alerts.pending(),
      },
      { processMetrics: options.metrics.processMetrics ?? false },
    );
  }

  let pruneCancel: (() => void) | null = null;
  const prune = () => {
    const days = settings().retentionDays;
    const r = store.pruner.prune(clock.now() - days * 86_400_000);
    if (r.messages || r.transitions) logger.info('pruned old data', r);
    pruneCancel = clock.setTimer(prune, PRUNE_EVERY_MS);
  };
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
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    attachNotifier: (notifier) => drainer.attach(notifier),
    async start() {
      // heapCompaction: whether V8's full GC could be reached (no command-line flag needed; see heap-compactor.ts).
      logger.info('core starting', { version: options.version, shell: options.shell, heapCompaction: compactor.available });
      prune();
      if (launcher && settings().dataSource.kind === 'local') {
        try {
          await launcher.start();
        } catch (e) {
          logger.error('local service did not start', { error: e });
        }
      }
      await followOwnNodes();
      // Notifications claimed before a crash are shown now, once; alerts left over are sent.
      await drainAll();
      if (options.autoPoll ?? true) poller.start();
    },
    async close() {
      if (closed) return;
      closed = true;
      pruneCancel?.();
      poller.stop();
      await poller.idle();
      await drainer.drain().catch(() => {});
      await alerts.close(options.alerts?.closeGraceMs);
      await sources.close();
      await launcher?.close();
      await ownNodes?.stop();
      listeners.clear();
      store.close();
      await logger.close();
    },
  };
}

export type { MonitorHandlers };
