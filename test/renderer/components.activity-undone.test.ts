// @vitest-environment happy-dom
/** Activity names a reorg's undo with the chain it happened on, by the name the user gave it among their own nodes. */
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import ActivityView from '../../src/renderer/src/views/ActivityView.vue';
import { useActivityStore } from '../../src/renderer/src/stores/activity';
import { useSettingsStore } from '../../src/renderer/src/stores/settings';
import type { Transition } from '../../src/shared/contract';
import { BEAM, C_CHAIN } from './fixtures';
import { setupRealRenderer, until } from './real-core';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

const undo = (id: number, kind: Transition['kind']): Transition => ({
  id,
  messageId: 'ab'.repeat(32),
  kind,
  fromStatus: 'delivered',
  toStatus: kind === 'delivery_undone' ? 'pending' : 'delivered',
  at: Date.UTC(2026, 0, 1, 12),
  network: 'mainnet',
  source: 'local',
  sourceBlockchainId: C_CHAIN.blockchainId,
  destinationBlockchainId: BEAM.blockchainId,
  watchers: [{ kind: 'address', address: '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC' }],
});

describe('Activity: a delivery or receipt undone by a reorg', () => {
  it('says "delivery undone by a reorg on <chain name>", with the own-node name when there is one', async () => {
    const ctx = await setupRealRenderer();
    const settings = useSettingsStore();
    await settings.load();
    settings.settings = {
      ...settings.settings!,
      dataSource: {
        kind: 'ownNodes',
        ownNodes: {
          chains: [{ rpcUrl: 'http://127.0.0.1:9', blockchainId: BEAM.blockchainId, name: 'Our Beam' }],
          confirmations: 1,
          pollIntervalMs: 2000,
          requestTimeoutMs: 15000,
        },
      },
    };
    const activity = useActivityStore();
    activity.items = [undo(2, 'receipt_undone'), undo(1, 'delivery_undone')];
    activity.loaded = true;
    wrapper = mount(ActivityView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    await until(() => expect(wrapper!.findAll('[data-testid="transition-row"]')).toHaveLength(2));
    const rows = wrapper.findAll('[data-testid="transition-row"]').map((r) => r.text());
    expect(rows[0]).toContain('receipt undone');
    expect(rows[0]).toContain('receipt undone by a reorg on C-Chain');
    expect(rows[1]).toContain('delivery undone by a reorg on Our Beam');
  });
});
