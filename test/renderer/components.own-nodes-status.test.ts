// @vitest-environment happy-dom
/**
 * The poll status bar with "your own nodes" as the data source: each chain's state from a real core
 * reading real anvil chains; a node that stops shows "node down" with a message that says what to do.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import PollStatusBar from '../../src/renderer/src/components/PollStatusBar.vue';
import { useSettingsStore } from '../../src/renderer/src/stores/settings';
import { useStatusStore } from '../../src/renderer/src/stores/status';
import { chainConfig } from '../own-node/rig';
import { waitFor } from '../support/wait-for';
import { setupOwnNodesRenderer, twoTestChains } from './own-nodes-core';

const chains = twoTestChains([31701, 31702]);

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

const tags = (w: VueWrapper) => w.findAll('[data-testid="poll-own-node"]').map((t) => [t.attributes('data-state'), t.text()]);

describe('PollStatusBar with own nodes', () => {
  it('shows each chain following, then a stopped node as down with what it means', async () => {
    const { core, pinia } = await setupOwnNodesRenderer();
    const saved = await core.invoke('updateSettings', {
      dataSource: {
        kind: 'ownNodes',
        ownNodes: { chains: [chainConfig(chains.a, { name: 'Alpha' }), chainConfig(chains.b)], confirmations: 0, pollIntervalMs: 200, requestTimeoutMs: 2000 },
      },
    });
    expect(saved.ok).toBe(true);
    wrapper = mount(PollStatusBar, { global: { plugins: [pinia] }, attachTo: document.body });
    await useSettingsStore().load();
    const status = useStatusStore();
    // The core reads the chains' states after each poll cycle.
    const pollUntil = (ok: () => boolean, what: string) =>
      waitFor(
        async () => {
          await status.pollNow();
          await wrapper!.vm.$nextTick();
          return ok() || undefined;
        },
        30_000,
        what,
      );
    await pollUntil(() => tags(wrapper!).filter(([s]) => s === 'ok').length === 2, 'both chains to be followed');
    expect(tags(wrapper)).toEqual([
      ['ok', 'Alpha: following'],
      ['ok', `${chains.b.blockchainId.slice(0, 6)}…${chains.b.blockchainId.slice(-4)}: following`],
    ]);

    await chains.a.node.stop();
    await pollUntil(() => tags(wrapper!)[0]?.[0] === 'down', 'the stopped node to show down');
    expect(tags(wrapper)[0]).toEqual(['down', 'Alpha: node down']);
    expect(tags(wrapper)[1]?.[0]).toBe('ok');
    const title = wrapper.get('[data-testid="poll-own-node"]').attributes('title');
    expect(title).toContain('Alpha: ');
    expect(title).toContain(`node 127.0.0.1:${chains.a.node.port}`);
    expect(title).toContain('EVM chain ID 31701');
    // The click shows the same words in a popover.
    await wrapper.get('[data-testid="poll-own-node"]').trigger('click');
    await waitFor(() => document.querySelector('[data-testid="poll-own-node-detail"]')?.textContent?.includes('Alpha') || undefined, 5_000, 'the popover');
    await chains.a.node.restart();
  });
});
