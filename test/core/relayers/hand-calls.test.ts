import { describe, expect, it } from 'vitest';
import { retryCall } from '../../../src/core/relayers/hand-calls';
import { parseMessage } from '../../../src/shared/messages';
import { BEAM, C_CHAIN } from '../helpers';

/** A delivered message whose execution failed, as the Data API records it (no requiredGasLimit, no allowedRelayerAddresses). */
const dataApiRecord = {
  messageId: 'ab'.repeat(32),
  teleporterContractAddress: '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf',
  sourceBlockchainId: C_CHAIN,
  destinationBlockchainId: BEAM,
  sourceEvmChainId: '43114',
  destinationEvmChainId: '4337',
  messageNonce: '7',
  from: '0x27aE10273D17Cd7e80de8580A51f476960626e5f',
  to: '0xd81545385803bCD83bd59f58Ba2d2c0562387F83',
  data: '0x1234',
  messageExecuted: false,
  receipts: [],
  receiptDelivered: false,
  rewardDetails: { address: '0x0000000000000000000000000000000000000000', name: 'x', symbol: 'X', decimals: 18, ercType: 'ERC-20', value: '0' },
  status: 'delivered',
  sourceTransaction: { txHash: '0x' + '1'.repeat(64), timestamp: 1, gasSpent: '1' },
  destinationTransaction: {
    txHash: '0x' + '2'.repeat(64),
    timestamp: 2,
    gasSpent: '1',
    rewardRedeemer: '0x27aE10273D17Cd7e80de8580A51f476960626e5f',
    delivererAddress: '0x27aE10273D17Cd7e80de8580A51f476960626e5f',
  },
};

describe('retryCall', () => {
  it('names the fields a Data API record lacks and where they come from, and builds no calldata without them', () => {
    const r = retryCall(parseMessage(dataApiRecord)!);
    if (!r.ok) throw new Error(r.error);
    expect(r.call).toMatchObject({ to: '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf', blockchainId: BEAM, chainName: 'Beam', calldata: '', cast: '' });
    expect(r.call.missing.map((m) => m.split(':')[0])).toEqual(['requiredGasLimit', 'allowedRelayerAddresses']);
    expect(r.call.missing[0]).toContain('MessageExecutionFailed event');
  });

  it('builds the call once the record has every field', () => {
    const r = retryCall(parseMessage({ ...dataApiRecord, requiredGasLimit: '100000', allowedRelayerAddresses: [] })!);
    if (!r.ok) throw new Error(r.error);
    expect(r.call.missing).toEqual([]);
    expect(r.call.calldata).toMatch(/^0x[0-9a-f]{8}/);
  });

  it('refuses a message that executed or is still pending', () => {
    expect(retryCall(parseMessage({ ...dataApiRecord, messageExecuted: true })!)).toMatchObject({ ok: false });
    const { destinationTransaction: _, ...pending } = dataApiRecord;
    expect(retryCall(parseMessage({ ...pending, status: 'pending' })!)).toMatchObject({ ok: false });
  });
});
