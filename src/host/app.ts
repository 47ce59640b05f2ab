/**
 * The whole web app in one call: the core facade (with the local service when the data source is
 * local) behind the web host. The CLI, the end-to-end tests and the UI benchmark all start it here.
 */
import { mkdirSync } from 'node:fs';
import { createMonitorCore, type LocalServiceSpec, type MonitorCore, type MonitorCoreOptions, type Logger } from '../core';
import type { DataSource } from '../shared/contract';
import { MonitorError } from '../shared/errors';
import type { Clock } from '../shared/clock';
import { appVersion } from './paths';
import { localServiceSpawnSpec, type LocalServiceChoice } from './local-service-spawn';
import { startWebServer, type WebServer } from '../web-server/server';

interface WebAppOptions {
  dataDir: string;
  rendererDir: string;
  port?: number;
  /** Stored into settings before polling starts; absent keeps what is stored. */
  source?: DataSource;
  /** Default: spawn src/local-service/cli.ts with the simulator. */
  localService?: LocalServiceSpec;
  localServiceChoice?: LocalServiceChoice;
  keychainService?: string;
  logger?: Logger;
  clock?: Clock;
  token?: string;
  autoPoll?: boolean;
  /** How often watched relayers' own metrics are read (tests: seconds instead of minutes). */
  relayerMetrics?: MonitorCoreOptions['relayerMetrics'];
}

export interface WebApp {
  host: WebServer;
  core: MonitorCore;
  close(): Promise<void>;
}

export async function launchWebApp(options: WebAppOptions): Promise<WebApp> {
  // The data folder holds the message cache and settings: private to the user.
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const coreOptions: MonitorCoreOptions = {
    dataDir: options.dataDir,
    shell: 'web',
    version: appVersion(),
    localService: options.localService ?? localServiceSpawnSpec(options.localServiceChoice),
  };
  if (options.keychainService) coreOptions.keychainService = options.keychainService;
  if (options.logger) coreOptions.logger = options.logger;
  if (options.clock) coreOptions.clock = options.clock;
  if (options.autoPoll !== undefined) coreOptions.autoPoll = options.autoPoll;
  if (options.relayerMetrics) coreOptions.relayerMetrics = options.relayerMetrics;

  const core = await createMonitorCore(coreOptions);
  try {
    if (options.source) {
      const r = await core.invoke('updateSettings', { dataSource: options.source });
      if (!r.ok) throw new MonitorError(r.error);
    }
    await core.start();
    const hostOptions: Parameters<typeof startWebServer>[0] = { core, rendererDir: options.rendererDir };
    if (options.port !== undefined) hostOptions.port = options.port;
    if (options.token) hostOptions.token = options.token;
    if (options.logger) hostOptions.logger = options.logger;
    const host = await startWebServer(hostOptions);
    let closing: Promise<void> | null = null;
    return {
      host,
      core,
      close: () => (closing ??= host.close().finally(() => core.close())),
    };
  } catch (e) {
    await core.close().catch(() => undefined);
    throw e;
  }
}
