/**
 * "Your own nodes" as the core's data source: the chains are checked when saved (a clear message per
 * failure, naming the field), the core starts the service in own-nodes mode, and a watched address
 * gets its transitions from real chains: new, left pending, receipt delivered.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorCore } from '../../src/core/monitor-core';
import type { AppInfo, PollStatus, Settings, TransitionPage } from '../../src/shared/contract';
import type { OwnNodesInput } from '../../src/shared/own-nodes';
import { tempDir } from '../core/helpers';
import { waitFor } from '../support/wait-for';
import { startTestChains, type TestChain } from './chains';
import { sendMessage, sendSpecifiedReceipts, TestRelayer } from './relayer';
import { chainConfig, coreSpawningService } from './rig';

let a: TestChain, b: TestChain;
let core: MonitorCore;
const tmp = tempDir('tw-own-core-');

beforeAll(async () => {
  [a, b] = await startTestChains(31601, 31602);
  core = await coreSpawningService(tmp.dir);
});
afterAll(async () => {
  await core?.close();
  await Promise.all([a?.node.stop(), b?.node.stop()]);
  tmp.cleanup();
});

const ownNodes = (over: Partial<OwnNodesInput> = {}): OwnNodesInput => ({
  chains: [chainConfig(a), chainConfig(b)],
  confirmations: 0,
  pollIntervalMs: 200,
  ...over,
});
const save = (o: OwnNodesInput) => core.invoke('updateSettings', { dataSource: { kind: 'ownNodes', ownNodes: o } });

describe('own nodes in Settings: checked when saved', () => {
  it('names a node that does not answer', async () => {
    const r = await save(ownNodes({ chains: [chainConfig(a, { rpcUrl: 'http://127.0.0.1:9' })] }));
    expect(r).toMatchObject({ ok: false, error: { kind: 'invalid_input', field: 'dataSource.ownNodes.chains.0.rpcUrl' } });
    expect(!r.ok && r.error.message).toMatch(/did not answer eth_chainId/);
  });

  it('names a node whose chain ID is not the configured one', async () => {
    const r = await save(ownNodes({ chains: [chainConfig(a, { evmChainId: '43114' })] }));
    expect(r).toMatchObject({ ok: false, error: { field: 'dataSource.ownNodes.chains.0.evmChainId' } });
    expect(!r.ok && r.error.message).toContain('reports EVM chain ID 31601, not 43114');
  });

  it('names a messenger address without code', async () => {
    const r = await save(ownNodes({ chains: [chainConfig(a, { messengers: ['0x00000000000000000000000000000000000000AB'.toLowerCase()] })] }));
    expect(r).toMatchObject({ ok: false, error: { field: 'dataSource.ownNodes.chains.0.messengers.0' } });
    expect(!r.ok && r.error.message).toMatch(/no contract at/);
  });

  it('names a blockchain ID the messenger does not have', async () => {
    const r = await save(ownNodes({ chains: [chainConfig(a, { blockchainId: b.blockchainId })] }));
    expect(r).toMatchObject({ ok: false, error: { field: 'dataSource.ownNodes.chains.0.blockchainId' } });
    expect(!r.ok && r.error.message).toContain(`says its blockchain ID is ${a.blockchainId}`);
  });

  it('rejects a malformed chain list before asking any node', async () => {
    const r = await core.invoke('updateSettings', { dataSource: { kind: 'ownNodes', ownNodes: { chains: [{ rpcUrl: 'ftp://x', blockchainId: 'nope' }] } } });
    expect(r.ok).toBe(false);
  });
});

describe('own nodes as the data source of the core', () => {
  it('saves the chains with their EVM chain IDs, starts the service and follows a watched address through its transitions', async () => {
    const saved = await save(ownNodes());
    expect(saved.ok).toBe(true);
    const ds = (saved as { value: Settings }).value.dataSource;
    expect(ds.kind === 'ownNodes' && ds.ownNodes.chains.map((c) => c.evmChainId)).toEqual(['31601', '31602']);
    await core.start();
    expect(existsSync(join(tmp.dir, 'own-nodes.json'))).toBe(true);
    const info = await waitFor(
      async () => {
        const r = await core.invoke('getAppInfo', undefined);
        return r.ok && (r.value as AppInfo).dataSource.baseUrl ? (r.value as AppInfo) : undefined;
      },
      30_000,
      'the local service to listen',
    );
    expect(info.dataSource).toMatchObject({ kind: 'ownNodes', simulated: false });

    const sender = a.wallet('sender').account.address;
    expect((await core.invoke('addWatch', { address: sender, network: 'fuji' })).ok).toBe(true);
    await core.invoke('updateSettings', { network: 'fuji' });
    const sent = await sendMessage(a, b);
    const id = sent.messageId.slice(2);
    const kinds = async () => {
      await core.invoke('pollNow', undefined);
      const r = await core.invoke('listTransitions', { messageId: id });
      return r.ok ? (r.value as TransitionPage).items.map((t) => t.kind).sort() : [];
    };
    await waitFor(async () => (await kinds()).includes('new'), 30_000, 'the new transition');
    const relayer = new TestRelayer([a, b]);
    await relayer.deliverAll();
    await waitFor(async () => (await kinds()).includes('left_pending'), 30_000, 'left_pending');
    await sendSpecifiedReceipts(b, a, [sent.messageId]);
    await relayer.deliverAll();
    await waitFor(async () => (await kinds()).includes('receipt_delivered'), 30_000, 'receipt_delivered');
    expect(await kinds()).toEqual(['left_pending', 'new', 'receipt_delivered']);

    // The poll status carries each node's state (read from the service after each cycle).
    const st = await core.invoke('getPollStatus', undefined);
    const own = st.ok ? (st.value as PollStatus).ownNodes : undefined;
    expect(own?.map((n) => [n.blockchainId, n.state, n.evmChainId])).toEqual([
      [a.blockchainId, 'ok', '31601'],
      [b.blockchainId, 'ok', '31602'],
    ]);
  });
});
