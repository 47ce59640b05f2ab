/**
 * The renderer's stores against a real core whose data source can be "your own nodes": the core
 * spawns the local service in own-nodes mode as the app does, over anvil test chains
 * (test/own-node/chains.ts), reached through the in-memory transport of real-core.ts on the real clock.
 */
import { randomBytes } from 'node:crypto';
import { afterEach } from 'vitest';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { createMonitorCore } from '../../src/core';
import type { MonitorCore } from '../../src/core/monitor-core';
import { SERVICE_CLI, TSX_LOADER } from '../../src/host/paths';
import { installMonitor } from '../../src/renderer/src/client';
import { createMonitorClient, type MonitorApi } from '../../src/shared/contract';
import { MonitorError } from '../../src/shared/errors';
import { tempDir } from '../core/helpers';
import { InMemoryTransport } from './real-core';

export interface OwnNodesRenderer {
  core: MonitorCore;
  transport: InMemoryTransport;
  api: MonitorApi;
  pinia: Pinia;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A started core (polling only when asked) that spawns the service for own nodes, and a fresh Pinia on it. */
export async function setupOwnNodesRenderer(): Promise<OwnNodesRenderer> {
  const tmp = tempDir('tw-own-renderer-');
  cleanups.push(() => tmp.cleanup());
  const core = await createMonitorCore({
    shell: 'web',
    dataDir: tmp.dir,
    version: 'x',
    localDataApi: { kind: 'spawn', command: process.execPath, args: ['--import', TSX_LOADER, SERVICE_CLI] },
    autoPoll: false,
    keychainService: `tw-test-${randomBytes(4).toString('hex')}`,
  });
  cleanups.push(() => core.close());
  await core.start();
  const transport = new InMemoryTransport(core);
  const api = createMonitorClient(transport, (e) => new MonitorError(e));
  installMonitor(api);
  const pinia = createPinia();
  setActivePinia(pinia);
  return { core, transport, api, pinia };
}
