/**
 * The renderer's stores against a real core whose data source can be "your own nodes": the core
 * spawns the local service in own-nodes mode as the app does, over anvil test chains
 * (test/own-node/chains.ts), reached through the in-memory transport of real-core.ts on the real clock.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import type { MonitorCore } from '../../src/core/monitor-core';
import { installMonitor } from '../../src/renderer/src/client';
import { type MonitorApi } from '../../src/shared/contract';
import { createMonitorClient } from '../../src/renderer/src/transport/monitor-client';
import { MonitorError } from '../../src/shared/errors';
import { tempDir } from '../core/helpers';
import { startTestChains, type TestChain } from '../own-node/chains';
import { coreSpawningService } from '../own-node/rig';
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
  const core = await coreSpawningService(tmp.dir);
  cleanups.push(() => core.close());
  await core.start();
  const transport = new InMemoryTransport(core);
  const api = createMonitorClient(transport, (e) => new MonitorError(e));
  installMonitor(api);
  const pinia = createPinia();
  setActivePinia(pinia);
  return { core, transport, api, pinia };
}

/** Two anvil chains with these EVM chain IDs for a file's tests: started before all of them, stopped after. */
export function twoTestChains(ids: readonly [number, number]): { a: TestChain; b: TestChain } {
  const chains = {} as { a: TestChain; b: TestChain };
  beforeAll(async () => {
    [chains.a, chains.b] = await startTestChains(ids[0], ids[1]);
  });
  afterAll(async () => {
    await Promise.all([chains.a?.node.stop(), chains.b?.node.stop()]);
  });
  return chains;
}
