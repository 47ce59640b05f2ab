/**
 * The headless watcher: the same core as the desktop app with no window. Settings, watchlist and
 * feeds come from the config file; alerts go to its channels through the outbox; `/metrics` serves
 * Prometheus; `web` optionally serves the usual UI through the shared web server, on 127.0.0.1.
 */
import { mkdirSync } from 'node:fs';
import {
  createMonitorCore,
  defaultDataDir,
  type AlertDeliveryResult,
  type LocalServiceSpec,
  type MonitorCore,
  type MonitorCoreOptions,
  type Logger,
} from '../core';
import { builtRendererDir } from '../web-server/renderer-dir';
import { startWebServer, type WebServer } from '../web-server/server';
import type { SettingsPatch } from '../shared/contract';
import { systemClock, type Clock } from '../shared/clock';
import { alertConsoleLine } from './alert-console';
import { readStartSecrets } from './api-key';
import { APP_VERSION, serviceSpawnSpec } from './app-files';
import type { LoadedConfig } from './config-file';
import { startMetricsServer, type MetricsServer } from './metrics-server';
import { followLiveness, type LiveEvent, type WatchLiveness } from './watch-liveness';
import { syncWatchlist, type SyncResult } from './watchlist-sync';

interface HeadlessOptions {
  loaded: LoadedConfig;
  env?: NodeJS.ProcessEnv;
  /** Serve the UI on 127.0.0.1 (the built renderer folder; never built here). */
  web?: { rendererDir: string; port?: number };
  keychainService?: string;
  clock?: Clock;
  logger?: Logger;
  localService?: LocalServiceSpec;
  /** Faster alert retries in tests. */
  alertRetryBaseMs?: number;
  /** Overrides metrics.listen's port (tests: 0). */
  metricsPort?: number;
  /** Default: package.json's, embedded in the bundle. */
  version?: string;
  /** Poll on the interval (default true; the benchmark drives cycles itself). */
  autoPoll?: boolean;
  /** A watch or feed finished its silent baseline: its changes alert from now on. */
  onWatchLive?: (e: LiveEvent) => void;
  /** Each alert delivery attempt (the command prints failures on stderr); errors come redacted. */
  onAlertDelivery?: (r: AlertDeliveryResult) => void;
  /** Each alert episode's fire and resolve, as one line in words (the command prints it). */
  onAlert?: (line: string) => void;
}

export interface HeadlessWatcher {
  core: MonitorCore;
  dataDir: string;
  metrics: MetricsServer | null;
  web: WebServer | null;
  sync: SyncResult;
  /** Which watches and feeds are live, and when all are. */
  liveness: WatchLiveness;
  keyFrom: string;
  /** Stops polling, gives the outbox a last drain, closes everything. */
  close(): Promise<void>;
}

function settingsPatch(c: LoadedConfig['config']): SettingsPatch {
  const p: SettingsPatch = {
    dataSource: typeof c.dataSource === 'string' ? { kind: c.dataSource } : c.dataSource,
    notifications: { enabled: true, ...c.notify },
  };
  if (c.network) p.network = c.network;
  if (c.apiKeyHeader) p.apiKeyHeader = c.apiKeyHeader;
  if (c.pollIntervalSeconds !== undefined) p.pollIntervalSeconds = c.pollIntervalSeconds;
  if (c.stuckThresholdMinutes !== undefined) p.stuckThresholdMinutes = c.stuckThresholdMinutes;
  if (c.plan !== undefined) p.plan = c.plan;
  if (c.retentionDays !== undefined) p.retentionDays = c.retentionDays;
  if (c.relayerSilentMinutes !== undefined) p.relayerSilentMinutes = c.relayerSilentMinutes;
  if (c.relayerPendingMinutes !== undefined) p.relayerPendingMinutes = c.relayerPendingMinutes;
  if (c.routeBacklogMinutes !== undefined) p.routeBacklogMinutes = c.routeBacklogMinutes;
  if (c.relayerFuelThresholdHours !== undefined) p.relayerFuelThresholdHours = c.relayerFuelThresholdHours;
  if (c.routeFailedExecutionsPerHour !== undefined) p.routeFailedExecutionsPerHour = c.routeFailedExecutionsPerHour;
  if (c.routeHistoryHours !== undefined) p.routeHistoryHours = c.routeHistoryHours;
  if (c.relayerClaimExcess !== undefined) p.relayerClaimExcess = c.relayerClaimExcess;
  if (c.relayerFailuresInWindow !== undefined) p.relayerFailuresInWindow = c.relayerFailuresInWindow;
  return p;
}

/** Starts everything or nothing: a failure on the way closes what was started and throws a message for the user. */
export async function startHeadless(o: HeadlessOptions): Promise<HeadlessWatcher> {
  const { config, resolvePath } = o.loaded;
  // Before anything starts: a missing UI build is the user's to fix (a start never builds).
  if (o.web) builtRendererDir(o.web.rendererDir);
  const { key, metricsToken } = readStartSecrets(config, {
    ...(o.env ? { env: o.env } : {}),
    resolvePath,
    ...(o.keychainService ? { keychainService: o.keychainService } : {}),
  });
  const dataDir = config.dataDir ? resolvePath(config.dataDir) : defaultDataDir(o.env);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });

  const messageUrl = config.alerts?.messageUrl;
  const coreOptions: MonitorCoreOptions = {
    dataDir,
    shell: 'headless',
    version: o.version ?? APP_VERSION,
    // The watcher has no Settings: advice names its config file.
    settingsPlace: `the config file ${o.loaded.file}`,
    localService: o.localService ?? serviceSpawnSpec(),
    metrics: { processMetrics: true },
    // One bad node never stops the watcher: it is reported and shown in its state; the others are read.
    ownNodesCheck: 'report',
    alerts: {
      channels: config.alerts?.channels ?? [],
      allowLinkLocal: config.alerts?.allowLinkLocal ?? false,
      ...(messageUrl ? { messageLink: (id: string) => messageUrl.replaceAll('{messageId}', id) } : {}),
      ...(o.alertRetryBaseMs !== undefined ? { retryBaseMs: o.alertRetryBaseMs, maxRetryMs: o.alertRetryBaseMs * 16 } : {}),
      ...(o.onAlertDelivery ? { onDelivery: o.onAlertDelivery } : {}),
    },
  };
  if (key.kind === 'session') coreOptions.apiKey = key.key;
  if (o.keychainService) coreOptions.keychainService = o.keychainService;
  if (o.clock) coreOptions.clock = o.clock;
  if (o.autoPoll !== undefined) coreOptions.autoPoll = o.autoPoll;
  if (o.logger) coreOptions.logger = o.logger;

  const core = await createMonitorCore(coreOptions);
  const onAlert = o.onAlert;
  if (onAlert) core.onEvent((e) => e.type === 'alerts' && e.alerts.forEach((a) => onAlert(alertConsoleLine(a))));
  // Following from before the first cycle, so no watch goes live unnoticed.
  const liveness = followLiveness(core, o.clock ?? systemClock, (e) => o.onWatchLive?.(e));
  let metrics: MetricsServer | null = null;
  let web: WebServer | null = null;
  try {
    const patch = settingsPatch(config);
    const r = await core.invoke('updateSettings', patch);
    if (!r.ok) throw new Error(`Settings from the config were refused: ${r.error.message}`);
    const network = (r.value as { network: string }).network;
    await core.start();
    const sync = await syncWatchlist(core, config, network);
    await liveness.refresh();
    if (core.metrics) {
      const listen = config.metrics?.listen ?? '127.0.0.1:9464';
      const at = listen.lastIndexOf(':');
      metrics = await startMetricsServer(core.metrics, {
        host: listen.slice(0, at).replace(/^\[|\]$/g, ''),
        port: o.metricsPort ?? Number(listen.slice(at + 1)),
        ...(metricsToken ? { token: metricsToken } : {}),
        ...(o.logger ? { logger: o.logger } : {}),
      });
    }
    if (o.web) web = await startWebServer({ core, rendererDir: o.web.rendererDir, ...(o.web.port !== undefined ? { port: o.web.port } : {}) });
    let closing: Promise<void> | null = null;
    return {
      core,
      dataDir,
      metrics,
      web,
      sync,
      liveness,
      keyFrom: key.kind === 'session' ? key.from : key.kind === 'keychain' ? 'the OS keychain' : 'nowhere (no key)',
      close: () =>
        (closing ??= (async () => {
          await web?.close().catch(() => undefined);
          await metrics?.close().catch(() => undefined);
          liveness.close();
          await core.close();
        })()),
    };
  } catch (e) {
    await web?.close().catch(() => undefined);
    await metrics?.close().catch(() => undefined);
    liveness.close();
    await core.close().catch(() => undefined);
    throw e;
  }
}
