// @vitest-environment happy-dom
/**
 * "Your own nodes" in Settings: one row per chain, each field's problem at that field (from the form's
 * own check, sending nothing), and each chain checked by the real core when saved against real anvil
 * chains, the failure shown at the row and field it concerns.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import SettingsView from '../../src/renderer/src/views/SettingsView.vue';
import type { SettingsPatch } from '../../src/shared/contract';
import { setupOwnNodesRenderer, twoTestChains } from './own-nodes-core';
import { until } from './real-core';

const chains = twoTestChains([31801, 31802]);

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

const fieldError = (w: VueWrapper, id: string) => w.find(`[data-testid="field-error-${id}"]`);
const fill = async (w: VueWrapper, i: number, f: Partial<Record<'name' | 'blockchain-id' | 'rpc-url' | 'ws-url' | 'messengers', string>>) => {
  for (const [k, v] of Object.entries(f)) await w.get(`[data-testid="own-node-${k}-${i}"]`).setValue(v);
};
const submit = (w: VueWrapper) => w.get('form').trigger('submit');

describe('Own nodes in Settings', () => {
  it('checks each field at its row, then each chain at save, then saves both chains', async () => {
    const { transport, api, pinia } = await setupOwnNodesRenderer();
    const w = (wrapper = mount(SettingsView, { global: { plugins: [pinia] }, attachTo: document.body }));
    await until(() => expect(w.find('[data-testid="settings-source-own-nodes"]').exists()).toBe(true));
    await w.get('[data-testid="settings-source-own-nodes"] input').trigger('change');
    await until(() => expect(w.find('[data-testid="own-node-rpc-url-0"]').exists()).toBe(true));

    // The form's own check: every bad field at once, each at its place; nothing sent.
    await fill(w, 0, { 'blockchain-id': 'nope', 'rpc-url': 'ftp://127.0.0.1:1', 'ws-url': 'http://x', messengers: '0x12' });
    await submit(w);
    await until(() => expect(fieldError(w, 'own-node-rpc-url-0').text()).toBe('RPC URL must be a full http:// or https:// URL.'));
    expect(fieldError(w, 'own-node-ws-url-0').text()).toBe('WebSocket URL must be a full ws:// or wss:// URL.');
    expect(fieldError(w, 'own-node-blockchain-id-0').text()).not.toBe('');
    expect(fieldError(w, 'own-node-messengers-0').text()).not.toBe('');
    expect(fieldError(w, 'own-node-name-0').exists()).toBe(false);
    expect(transport.callsOf('updateSettings')).toEqual([]);

    // A well-formed row whose node does not answer: the core's check names it at the RPC URL.
    await fill(w, 0, { name: 'Alpha', 'blockchain-id': chains.a.blockchainId, 'rpc-url': 'http://127.0.0.1:9', 'ws-url': '', messengers: chains.a.messenger });
    await submit(w);
    await until(() => expect(fieldError(w, 'own-node-rpc-url-0').text()).toMatch(/Chain 1: .*did not answer eth_chainId/));
    expect(fieldError(w, 'own-node-blockchain-id-0').exists()).toBe(false);
    expect(transport.callsOf('updateSettings')).toHaveLength(1);

    // Row 1 added; its messenger has no code: shown at row 1's messengers, row 0 now clean.
    await fill(w, 0, { 'rpc-url': chains.a.node.url });
    await w.get('[data-testid="own-node-add"]').trigger('click');
    await fill(w, 1, { 'blockchain-id': chains.b.blockchainId, 'rpc-url': chains.b.node.url, messengers: '0x00000000000000000000000000000000000000ab' });
    await submit(w);
    await until(() => expect(fieldError(w, 'own-node-messengers-1').text()).toMatch(/Chain 2: there is no contract at/));
    expect(fieldError(w, 'own-node-rpc-url-0').exists()).toBe(false);

    // Fixed: saved, each chain with the EVM chain ID its node reported.
    await fill(w, 1, { messengers: ` ${chains.b.messenger} ` });
    await submit(w);
    await until(() => expect(w.find('[data-testid="settings-saved"]').exists()).toBe(true));
    expect((transport.callsOf('updateSettings').at(-1) as SettingsPatch).dataSource).toEqual({
      kind: 'ownNodes',
      ownNodes: {
        chains: [
          { name: 'Alpha', rpcUrl: chains.a.node.url, blockchainId: chains.a.blockchainId, messengers: [chains.a.messenger] },
          { rpcUrl: chains.b.node.url, blockchainId: chains.b.blockchainId, messengers: [chains.b.messenger] },
        ],
        confirmations: 1,
        pollIntervalMs: 2000,
        requestTimeoutMs: 15000,
      },
    });
    const ds = (await api.getSettings()).dataSource;
    expect(ds.kind === 'ownNodes' && ds.ownNodes.chains.map((c) => [c.name, c.evmChainId])).toEqual([
      ['Alpha', '31801'],
      [undefined, '31802'],
    ]);

    // Removing a row and saving keeps the other.
    await w.get('[data-testid="own-node-remove-0"]').trigger('click');
    await submit(w);
    await until(async () => {
      const s = (await api.getSettings()).dataSource;
      expect(s.kind === 'ownNodes' && s.ownNodes.chains.map((c) => c.blockchainId)).toEqual([chains.b.blockchainId]);
    });
  });
});
