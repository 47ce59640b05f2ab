import { decodeFunctionData } from 'viem';
import { describe, expect, it } from 'vitest';
import { MESSENGER_CALLS, receiptsCall, redeemCall, retryCall } from '../../../src/core/relayers/hand-calls';
import { HandCallInputSchema } from '../../../src/shared/relayer-config';
import { MAX_OWED_MESSAGES_PER_CALL } from '../../../src/shared/policy';
import { decodeCb58 } from '../../../src/shared/validators';
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

const MESSENGER = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf';
const bytes32 = (cb58: string) => `0x${Buffer.from(decodeCb58(cb58)!).toString('hex')}`;

describe('receiptsCall', () => {
  it("sendSpecifiedReceipts on the route's destination, back to its source, naming the owed messages, with no fee and any relayer", () => {
    const ids = ['ab'.repeat(32), `0x${'CD'.repeat(32)}`];
    const r = receiptsCall({ messenger: MESSENGER, source: C_CHAIN, destination: BEAM, messageIds: ids });
    if (!r.ok) throw new Error(r.error);
    expect(r.call).toMatchObject({ to: MESSENGER, blockchainId: BEAM, chainName: 'Beam', sender: null, missing: [], check: null });
    expect(r.call.title).toBe('Send the receipts of 2 messages back to C-Chain');
    expect(r.call.next).toContain('a relayer (yours) must deliver it there');
    const d = decodeFunctionData({ abi: MESSENGER_CALLS, data: r.call.calldata as `0x${string}` });
    expect(d.functionName).toBe('sendSpecifiedReceipts');
    expect(d.args).toEqual([
      bytes32(C_CHAIN),
      [`0x${'ab'.repeat(32)}`, `0x${'cd'.repeat(32)}`],
      { feeTokenAddress: '0x0000000000000000000000000000000000000000', amount: 0n },
      [],
    ]);
    expect(r.call.cast).toBe(`cast send ${MESSENGER} ${r.call.calldata} --rpc-url "$RPC_URL" --private-key "$PRIVATE_KEY"`);
  });

  it('refuses chains that are not cb58 blockchain IDs', () => {
    expect(receiptsCall({ messenger: MESSENGER, source: '43114', destination: BEAM, messageIds: ['ab'.repeat(32)] })).toMatchObject({ ok: false });
  });

  it('the contract takes 1 to MAX_OWED_MESSAGES_PER_CALL message IDs, each a message ID', () => {
    const input = (messageIds: string[]) =>
      HandCallInputSchema.safeParse({ kind: 'receipts', sourceBlockchainId: C_CHAIN, destinationBlockchainId: BEAM, messageIds });
    expect(input(['ab'.repeat(32)]).success).toBe(true);
    expect(input([]).error?.issues[0]?.message).toBe('Name at least one message.');
    expect(input(Array.from({ length: MAX_OWED_MESSAGES_PER_CALL + 1 }, () => 'ab'.repeat(32))).error?.issues[0]?.message).toBe(
      `At most ${MAX_OWED_MESSAGES_PER_CALL} messages per call.`,
    );
    expect(input(['not-an-id']).success).toBe(false);
  });
});

describe('redeemCall', () => {
  it('comes with the read that shows what is left to redeem', () => {
    const relayer = '0x27aE10273D17Cd7e80de8580A51f476960626e5f';
    const token = '0xd81545385803bCD83bd59f58Ba2d2c0562387F83';
    const call = redeemCall({ messenger: MESSENGER, blockchainId: C_CHAIN, relayer, feeAsset: token });
    expect(call).toMatchObject({ sender: relayer, chainName: 'C-Chain', next: null });
    expect(call.check).toBe(`cast call ${MESSENGER} "checkRelayerRewardAmount(address,address)(uint256)" ${relayer} ${token} --rpc-url "$RPC_URL"`);
  });
});
