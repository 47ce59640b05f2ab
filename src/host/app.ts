/**
 * The whole web app in one call: the core facade (with the local service when the data source is
 * local) behind the web host. The CLI, the end-to-end tests and the UI benchmark all start it here.
 */
import { mkdirSync } from 'node:fs';
import { createMonitorService } from '../core';
import type { LocalServiceSpec, Logger, MonitorService, MonitorServiceOptions } from '../core/facade';
import type { DataSource } from '../shared/api';
import { MonitorError } from '../shared/errors';
import type { Clock } from '../shared/clock';
import { appVersion } from './paths';
import { localServiceSpawnSpec, type LocalServiceChoice } from './local-service';
import { startWebHost, type WebHost } from './server';

export interface WebAppOptions {
  dataDir: string;
  rendererDir: string;
  port?: number;
  /** Stored into settings before polling starts; absent keeps what is stored. */
  source?: DataSource;
  /** Default: spawn src/service/cli.ts with the simulator. */
  localService?: LocalServiceSpec;
  localServiceChoice?: LocalServiceChoice;
  keychainService?: string;
  logger?: Logger;
  clock?: Clock;
  token?: string;
  autoPoll?: boolean;
}

export interface WebApp {
  host: WebHost;
  service: MonitorService;
  close(): Promise<void>;
}

export async function launchWebApp(options: WebAppOptions): Promise<WebApp> {
  // The data folder holds the message cache and settings: private to the user.
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const serviceOptions: MonitorServiceOptions = {
    dataDir: options.dataDir,
    shell: 'web',
    version: appVersion(),
    localService: options.localService ?? localServiceSpawnSpec(options.localServiceChoice),
  };
  if (options.keychainService) serviceOptions.keychainService = options.keychainService;
  if (options.logger) serviceOptions.logger = options.logger;
  if (options.clock) serviceOptions.clock = options.clock;
  if (options.autoPoll !== undefined) serviceOptions.autoPoll = options.autoPoll;

  const service = await createMonitorService(serviceOptions);
  try {
    if (options.source) {
      const r = await service.invoke('updateSettings', { dataSource: options.source });
      if (!r.ok) throw new MonitorError(r.error);
    }
    await service.start();
    const hostOptions: Parameters<typeof startWebHost>[0] = { service, rendererDir: options.rendererDir };
    if (options.port !== undefined) hostOptions.port = options.port;
    if (options.token) hostOptions.token = options.token;
    if (options.logger) hostOptions.logger = options.logger;
    const host = await startWebHost(hostOptions);
    let closing: Promise<void> | null = null;
    return {
      host,
      service,
      close: () => (closing ??= host.close().finally(() => service.close())),
    };
  } catch (e) {
    await service.close().catch(() => undefined);
    throw e;
  }
}
