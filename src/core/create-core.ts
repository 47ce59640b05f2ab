import { isMonitorMethod, parseMonitorInput, type InvokeResponse, type MonitorHandlers, type PollStatus } from '../shared/contract';
import type { SourceHealthTracker } from './sources/source-health';
import { systemClock, type Clock } from '../shared/clock';
import { toErrorInfo } from '../shared/errors';
import { ownChainsOf } from '../shared/chains';
import type { MonitorCore, MonitorCoreOptions } from './monitor-core';
import { favorMemoryOverSpeed } from './memory/favor-memory';
import { createRedactor, type Redactor } from './secrets/redact';
import { FuelMetrics } from './metrics/fuel-metrics';
import { RelayerMetrics } from './metrics/relayer-metrics';
import { PartsBuilder, partName } from './parts/part';
import { afterCycleList } from './parts/after-cycle';
import { logPart } from './parts/log';
import { storePart } from './parts/store';
import { keysPart } from './parts/keys';
import { watchPart } from './parts/watch';
import { retentionPart } from './parts/retention';
import { EventHub } from './parts/events';
import { metricsPart } from './parts/metrics';
import { localServicePart } from './parts/local-service';
import { ownNodesPart } from './parts/own-nodes';
import { dataSourcesPart } from './parts/data-sources';
import { alertsPart } from './parts/alerts';
import { notificationsPart } from './parts/notifications';
import { quotaWarningPart } from './parts/quota-warning';
import { alertTimelinePart } from './parts/alert-timeline';
import { relayerEconomicsPart } from './parts/relayer-economics';
import { relayerAlertsPart } from './parts/relayer-alerts';
import { relayerMetricsWatchPart } from './parts/relayer-metrics-watch';
import { episodeNeeds } from './parts/episode-needs';
import { RelayerOwnViewMetrics } from './metrics/relayer-own-view-metrics';
import { wentLivePart } from './parts/went-live';
import { pollingPart } from './parts/polling';
import { metricsReadingsPart } from './parts/metrics-readings';
import { sourceHealthPart } from './parts/source-health';
import { handlersPart } from './parts/handlers';

/**
 * What runs after each poll cycle, in this order, once the cycle's `transitions` event is out: each a
 * part's `afterCycle` (one that fails is logged and the next still runs; parts/after-cycle.ts). The
 * relayer alerts' pass over the cache feeds the economics, and the notifications and alert channels
 * come last so they carry what the work before them put in the outbox.
 */
const AFTER_CYCLE = [
  'ownNodes',
  'sourceHealth',
  'wentLive',
  'relayerAlerts',
  'relayerEconomics',
  'relayerMetricsWatch',
  'notifications',
  'quotaWarning',
  'alerts',
] as const;

/**
 * The core's parts in start order (close() stops them in reverse): each factory receives only the
 * parts listed before it, so a part cannot use a later one (parts/part.ts). docs/architecture.md
 * draws this list and the after-cycle order above.
 */
function coreParts(options: MonitorCoreOptions, clock: Clock, redactor: Redactor) {
  return PartsBuilder.begin()
    .add('log', () => logPart(options.dataDir, options.logger, clock, redactor))
    .add('store', ({ log }) => storePart(options.dataDir, log.logger))
    .add('keys', ({ log }) => keysPart(options.keychainService ?? 'teleporter-watch', options.apiKey, log.logger))
    .add('watch', ({ log, store }) => watchPart(store, clock, log.logger))
    .add('retention', ({ log, store }) => retentionPart(store.store, clock, log.logger, store.settings))
    .add('events', ({ log }) => new EventHub(redactor, log.logger))
    .add('metrics', ({ store, events }) => metricsPart(options.metrics, { store: store.store, events }))
    .add('localService', ({ log, store, events }) => localServicePart(options.localService, options.dataDir, log.logger, store.settings, events))
    .add('ownNodes', ({ log, store, events }) => ownNodesPart(options.localService, options.dataDir, log.logger, store.settings, events))
    .add('dataSources', ({ log, store, keys, metrics, localService, ownNodes }) =>
      dataSourcesPart({
        clock,
        logger: log.logger,
        settings: store.settings,
        apiKey: () => keys.keys.get(),
        localUrl: () => localService.url(),
        ownNodesUrl: () => ownNodes.url(),
        metrics: metrics.registry,
        store: store.store,
        ...(options.settingsPlace ? { settingsPlace: options.settingsPlace } : {}),
      }),
    )
    .add('alerts', ({ log, store, events, metrics, dataSources }) =>
      alertsPart(options.alerts, {
        store: store.store,
        clock,
        logger: log.logger,
        settings: store.settings,
        events,
        sourceLink: (id) => `${dataSources.sources.baseUrl() ?? ''}/v1/teleporter/messages/${id}`,
        onResult: (r) => {
          metrics.registry?.observeAlert(r.channel, r.outcome, r.count);
          options.alerts?.onDelivery?.({ ...r, ...(r.error !== undefined ? { error: redactor.text(r.error) } : {}) });
        },
      }),
    )
    .add('notifications', ({ log, store, events }) => notificationsPart(store.store, clock, log.logger, options.notifier, events.emit))
    .add('quotaWarning', ({ log, store, notifications, dataSources }) =>
      quotaWarningPart({
        store: store.store,
        clock,
        logger: log.logger,
        settings: store.settings,
        drainer: notifications.drainer,
        quota: () => dataSources.sources.budget().quota(),
      }),
    )
    .add('alertTimeline', ({ log, store, events }) =>
      alertTimelinePart({ store: store.store, logger: log.logger, settings: store.settings, emit: events.emit }),
    )
    .add('sourceHealth', ({ store, ownNodes, alertTimeline }) =>
      sourceHealthPart({
        store: store.store,
        clock,
        settings: store.settings,
        timeline: alertTimeline,
        chainStatuses: () => ownNodes.chainStatuses(),
      }),
    )
    .add('relayerEconomics', (made) =>
      relayerEconomicsPart({
        ...episodeNeeds(clock, made),
        client: (network) => made.dataSources.sources.client(network),
        emit: made.events.emit,
        redact: (t) => redactor.text(t),
        ownNodesUrl: () => made.ownNodes.url(),
        ...(made.metrics.registry ? { metrics: new FuelMetrics(made.metrics.registry.registry) } : {}),
      }),
    )
    .add('relayerAlerts', (made) =>
      relayerAlertsPart({
        ...episodeNeeds(clock, made),
        tap: (now) => made.relayerEconomics.tap(now),
        ...(made.metrics.registry
          ? {
              metrics: new RelayerMetrics(
                made.metrics.registry.registry,
                () => clock.now(),
                () => ownChainsOf(made.store.settings().dataSource),
              ),
            }
          : {}),
      }),
    )
    .add('relayerMetricsWatch', (made) =>
      relayerMetricsWatchPart({
        ...episodeNeeds(clock, made),
        emit: made.events.emit,
        redact: (t) => redactor.text(t),
        ...(options.relayerMetrics ?? {}),
        ...(made.metrics.registry ? { metrics: new RelayerOwnViewMetrics(made.metrics.registry.registry) } : {}),
      }),
    )
    .add('wentLive', ({ store, events }) => wentLivePart(store.store, events.emit))
    .add('polling', (before) => {
      const polling = pollingPart({
        store: before.store.store,
        engine: before.watch.engine,
        index: before.watch.index,
        clock,
        logger: before.log.logger,
        settings: before.store.settings,
        sources: before.dataSources.sources,
        emit: before.events.emit,
        autoPoll: options.autoPoll ?? true,
        completeStatus: (status) => withHealth(before.ownNodes.withChains(status), before.sourceHealth.health),
        sight: before.sourceHealth.health,
        onCycleEnd: (r) => before.sourceHealth.observeCycle(r),
        onKeepUp: (k) => before.quotaWarning.observeKeepUp(k),
        runAfterCycle: afterCycleList(before, AFTER_CYCLE, before.log.logger),
      });
      // A data source that has just come up is read at once, not an interval later.
      before.localService.onReady(() => polling.poller.nudge());
      before.ownNodes.onReady(() => polling.poller.nudge());
      return polling;
    })
    .add('metricsReadings', ({ metrics, dataSources, alerts, polling }) =>
      metricsReadingsPart(metrics.registry, {
        pollStatus: () => polling.status(),
        sources: dataSources.sources,
        alertsPending: () => alerts.dispatcher.pending(),
        alertChannels: () => alerts.dispatcher.states(),
      }),
    )
    .add('handlers', ({ log, store, keys, dataSources, events, polling, relayerEconomics, alerts, relayerMetricsWatch }) =>
      handlersPart({
        version: options.version,
        shell: options.shell,
        ...(options.openExternal ? { openExternal: options.openExternal } : {}),
        ownNodesCheck: options.ownNodesCheck ?? 'refuse',
        clock,
        logger: log.logger,
        store: store.store,
        settings: store.settings,
        keys: keys.keys,
        sources: dataSources.sources,
        poller: polling.poller,
        emit: events.emit,
        pollStatus: () => polling.status(),
        economics: () => relayerEconomics.economics(),
        alertChannels: () => alerts.dispatcher.states(),
        relayerOwnView: { view: () => relayerMetricsWatch.view(), setUrl: (a, u) => relayerMetricsWatch.setUrl(a, u) },
      }),
    );
}

/** A poll status with the source's health (absent until the first cycle reported). */
function withHealth(status: PollStatus, health: SourceHealthTracker): PollStatus {
  const source = health.snapshot();
  return source ? { ...status, source } : status;
}

/** The core as one object: the MonitorApi handlers, an event stream, and start/close, over the parts above. */
export async function createMonitorCore(options: MonitorCoreOptions): Promise<MonitorCore> {
  const clock = options.clock ?? systemClock;
  // One redactor for everything that leaves the core: log lines, call answers, events.
  const redactor = createRedactor();
  const list = await coreParts(options, clock, redactor).build();
  const { log, events, metrics, notifications, handlers: contract } = list.parts;
  const logger = log.logger;
  const { handlers } = contract;

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
    ...(metrics.registry ? { metrics: metrics.registry } : {}),
    async addWatches(watches) {
      return contract.addWatches(watches);
    },
    onEvent: (listener) => events.onEvent(listener),
    attachNotifier: (notifier) => notifications.drainer.attach(notifier),
    async start() {
      // favorMemory: whether V8 took the flag that keeps the heap near its live size (see memory/favor-memory.ts).
      logger.info('core starting', {
        version: options.version,
        shell: options.shell,
        favorMemory: favorMemoryOverSpeed(),
        parts: list.names,
        afterCycle: AFTER_CYCLE.map(partName),
      });
      await list.start();
    },
    // Each part is stopped once, however often this is called.
    close: () => list.stop(),
  };
}

export type { MonitorHandlers };
