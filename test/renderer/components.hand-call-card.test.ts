// @vitest-environment happy-dom
/**
 * The card of a transaction to send by hand, on calls the core's hand-calls builders make: where to
 * send it, the calldata and the `cast send` line; a redeem's read to make first; a receipts call's
 * next step; and, for a record that lacks fields, what it lacks and no calldata.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import HandCallCard from '../../src/renderer/src/components/HandCallCard.vue';
import { receiptsCall, redeemCall } from '../../src/core/relayers/hand-calls';
import type { HandCall } from '../../src/shared/relayer-config';
import { BEAM, C_CHAIN } from '../core/helpers';

const MESSENGER = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf';
const RELAYER = '0x27aE10273D17Cd7e80de8580A51f476960626e5f';
const TOKEN = '0xd81545385803bCD83bd59f58Ba2d2c0562387F83';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});
const mountCard = (call: HandCall) => (wrapper = mount(HandCallCard, { props: { call } }));
const text = (id: string) => wrapper!.get(`[data-testid="${id}"]`).text();

describe('HandCallCard', () => {
  it('a redeem: from the reward address, its calldata and cast line, and the read to check first', () => {
    const call = redeemCall({ messenger: MESSENGER, blockchainId: C_CHAIN, relayer: RELAYER, feeAsset: TOKEN });
    mountCard(call);
    expect(text('hand-call-chain')).toBe('C-Chain');
    expect(text('hand-call-sender')).toContain(RELAYER);
    expect(text('hand-call-calldata')).toBe(call.calldata);
    expect(text('hand-call-cast')).toBe(call.cast);
    expect(text('hand-call-check')).toBe(call.check);
    expect(wrapper!.find('[data-testid="hand-call-next"]').exists()).toBe(false);
  });

  it('a receipts call: sent on the destination by anyone, then what must follow', () => {
    const r = receiptsCall({ messenger: MESSENGER, source: C_CHAIN, destination: BEAM, messageIds: ['ab'.repeat(32)] });
    if (!r.ok) throw new Error(r.error);
    mountCard(r.call);
    expect(wrapper!.get('.n-card-header').text()).toContain('Send the receipts of 1 message back to C-Chain');
    expect(text('hand-call-chain')).toBe('Beam');
    expect(wrapper!.find('[data-testid="hand-call-sender"]').exists()).toBe(false);
    expect(wrapper!.find('[data-testid="hand-call-check"]').exists()).toBe(false);
    expect(text('hand-call-next')).toBe(r.call.next);
  });

  it('a call that cannot be built: what the record lacks, and no calldata to copy', () => {
    mountCard({
      title: 'Retry',
      blockchainId: BEAM,
      chainName: 'Beam',
      to: MESSENGER,
      calldata: '',
      cast: '',
      sender: null,
      missing: ['requiredGasLimit: not in the record'],
      check: null,
      next: null,
    });
    expect(text('hand-call-missing')).toContain('requiredGasLimit: not in the record');
    expect(wrapper!.find('[data-testid="hand-call-calldata"]').exists()).toBe(false);
  });
});
