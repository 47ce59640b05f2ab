/** A local service in own-nodes mode over test chains, a core that spawns it as the app does, and the ways tests read them. */
import { randomBytes } from 'node:crypto';
import { createMonitorCore } from '../../src/core';
import type { MonitorCore, MonitorCoreOptions } from '../../src/core/monitor-core';
import { SERVICE_CLI, TSX_LOADER } from '../../src/host/paths';
import { startLocalService, type RunningService } from '../../src/local-service/index';
import type { OwnNodeChain, OwnNodesInput } from '../../src/shared/own-nodes';
import { waitFor } from '../support/wait-for';
import type { TestChain } from './chains';

export function chainConfig(c: TestChain, over: Partial<OwnNodeChain> = {}): OwnNodesInput['chains'][number] {
  return { rpcUrl: c.node.url, blockchainId: c.blockchainId, messengers: [c.messenger], network: 'fuji', ...over };
}

/** Your own nodes as the web specs choose them: chains Alpha and Beta, listed under mainnet (the Messages filter's default), read at once. */
export function alphaBetaSource(a: TestChain, b: TestChain) {
  return {
    kind: 'ownNodes' as const,
    ownNodes: {
      chains: [chainConfig(a, { name: 'Alpha', network: 'mainnet' }), chainConfig(b, { name: 'Beta', network: 'mainnet' })],
      confirmations: 0,
      pollIntervalMs: 200,
      requestTimeoutMs: 15_000,
    },
  };
}

/** A core (not started, no auto-poll) that spawns the local service as the app does: own nodes are chosen in its settings. */
export function coreSpawningService(dataDir: string, over: Partial<MonitorCoreOptions> = {}): Promise<MonitorCore> {
  return createMonitorCore({
    shell: 'web',
    dataDir,
    version: 'x',
    localService: { kind: 'spawn', command: process.execPath, args: ['--import', TSX_LOADER, SERVICE_CLI] },
    autoPoll: false,
    keychainService: `tw-test-${randomBytes(4).toString('hex')}`,
    ...over,
  });
}

export function startOwnNodeService(chains: readonly TestChain[], over: Partial<OwnNodesInput> = {}, dbPath?: string): Promise<RunningService> {
  return startLocalService({
    rate: 0,
    warmStore: false,
    log: () => undefined,
    ...(dbPath ? { dbPath } : {}),
    ownNodes: { chains: chains.map((c) => chainConfig(c)), confirmations: 0, pollIntervalMs: 100, ...over },
  });
}

/** The stored record of a message (0x-hex or bare ID) once `ok` holds for it. */
export function recordWhen(
  service: RunningService,
  messageId: string,
  ok: (r: Record<string, unknown>) => boolean,
  ms = 20_000,
): Promise<Record<string, unknown>> {
  const id = messageId.replace(/^0x/, '').toLowerCase();
  return waitFor(
    () => {
      const r = service.store.get(id);
      return r && ok(r) ? r : undefined;
    },
    ms,
    `record ${id.slice(0, 10)} to reach the expected state`,
  );
}
