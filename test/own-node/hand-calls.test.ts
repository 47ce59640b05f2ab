/**
 * The calls the app produces for an operator to send by hand, sent on anvil: retryMessageExecution
 * built from the own-node record of a failed execution runs it (the messenger checks the message's
 * hash, so every field must be exactly as delivered, and the record then shows it executed), and
 * redeemRelayerRewards sent by the reward address empties what checkRelayerRewardAmount showed.
 */
import { encodeFunctionData, getAddress, type Address, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSENGER_CALLS, redeemCall, retryCall } from '../../src/core/relayers/hand-calls';
import type { RunningService } from '../../src/local-service/index';
import { parseMessage } from '../../src/shared/messages';
import { startTestChains, type TestChain } from './chains';
import { recordWhen, startOwnNodeService } from './rig';
import { sendMessage, TestRelayer } from './relayer';

let a: TestChain, b: TestChain;
let service: RunningService;
let relayer: TestRelayer;

beforeAll(async () => {
  [a, b] = await startTestChains(31451, 31452);
  service = await startOwnNodeService([a, b]);
  relayer = new TestRelayer([a, b]);
});
afterAll(async () => {
  await service?.close();
  await Promise.all([a, b].map((x) => x?.node.stop()));
});

/** Sends a transaction as `who` on `chain`; resolves with whether it succeeded (a revert is an answer, not an error). */
async function send(chain: TestChain, who: 'sender' | 'relayer', to: string, data: string): Promise<'success' | 'reverted'> {
  const w = chain.wallet(who);
  const hash = await w.client
    .sendTransaction({ to: to as Address, data: data as Hex, gas: 500_000n, account: w.account, chain: w.client.chain })
    .catch((e: Error) => (/revert/i.test(e.message) ? null : Promise.reject(e)));
  if (hash === null) return 'reverted';
  return (await chain.client.waitForTransactionReceipt({ hash })).status;
}

describe('the exact call for what needs a hand, sent on anvil', () => {
  it('retryMessageExecution from the record of a failed execution runs it, once; a message altered by one field is refused', async () => {
    // A receipt rides along, and the message allows one relayer: every field of the struct is exercised.
    const first = await sendMessage(b, a);
    await relayer.deliverAll();
    const w = a.wallet('sender');
    const hash = await w.client.writeContract({
      address: a.messenger,
      abi: (await import('./compile-messenger')).compileTestMessenger().abi,
      functionName: 'sendCrossChainMessage',
      args: [
        b.blockchainIdHex,
        '0x00000000000000000000000000000000000000aa',
        { feeTokenAddress: a.messenger, amount: 3n },
        123_456n,
        [b.wallet('relayer').account.address],
        '0xc0ffee',
      ],
      gas: 1_500_000n,
      account: w.account,
      chain: w.client.chain,
    });
    const receipt = await a.client.waitForTransactionReceipt({ hash });
    const messageId = receipt.logs[0]!.topics[1]!;
    relayer.failExecution.add(messageId);
    await relayer.deliverAll();
    const record = await recordWhen(service, messageId, (r) => r.status === 'delivered' && r.messageExecuted === false);
    expect(record).toMatchObject({ requiredGasLimit: '123456', allowedRelayerAddresses: [b.wallet('relayer').account.address] });
    expect((record.receipts as unknown[]).length).toBe(1);
    expect(first.messageId).toBeDefined();

    const built = retryCall(parseMessage(record)!);
    if (!built.ok) throw new Error(built.error);
    const call = built.call;
    expect(call).toMatchObject({ to: getAddress(b.messenger), blockchainId: b.blockchainId, missing: [] });
    expect(call.cast).toBe(`cast send ${getAddress(b.messenger)} ${call.calldata} --rpc-url "$RPC_URL" --private-key "$PRIVATE_KEY"`);

    // One field off (the gas limit) and the messenger's hash check refuses it.
    const r = record as { messageNonce: string; from: Address; to: Address; receipts: { receivedMessageNonce: string; relayerRewardAddress: Address }[] };
    const altered = encodeFunctionData({
      abi: MESSENGER_CALLS,
      functionName: 'retryMessageExecution',
      args: [
        a.blockchainIdHex,
        {
          messageNonce: BigInt(r.messageNonce),
          originSenderAddress: r.from,
          destinationBlockchainID: b.blockchainIdHex,
          destinationAddress: r.to,
          requiredGasLimit: 123_457n,
          allowedRelayerAddresses: [b.wallet('relayer').account.address],
          receipts: r.receipts.map((x) => ({ receivedMessageNonce: BigInt(x.receivedMessageNonce), relayerRewardAddress: x.relayerRewardAddress })),
          message: '0xc0ffee',
        },
      ],
    });
    expect(await send(b, 'sender', call.to, altered)).toBe('reverted');

    // Anyone may send the exact call: the message runs, and the record shows it executed.
    expect(await send(b, 'sender', call.to, call.calldata)).toBe('success');
    await recordWhen(service, messageId, (x) => x.messageExecuted === true);
    expect(await send(b, 'sender', call.to, call.calldata)).toBe('reverted'); // once
  });

  it('redeemRelayerRewards sent by the reward address empties its credit', async () => {
    const token = '0x00000000000000000000000000000000000000fe';
    const reward = b.wallet('relayer').account.address;
    await sendMessage(a, b, { fee: 42n, feeToken: token });
    await relayer.deliverAll();
    await sendMessage(b, a); // carries the receipt back to a
    await relayer.deliverAll();
    const owed = () => a.client.readContract({ address: a.messenger, abi: MESSENGER_CALLS, functionName: 'checkRelayerRewardAmount', args: [reward, token] });
    expect(await owed()).toBe(42n);

    const call = redeemCall({ messenger: a.messenger, blockchainId: a.blockchainId, relayer: reward, feeAsset: token });
    expect(call).toMatchObject({ to: a.messenger, sender: reward, missing: [] });
    expect(call.cast).toBe(`cast send ${a.messenger} ${call.calldata} --rpc-url "$RPC_URL" --private-key "$PRIVATE_KEY"`);
    expect(await send(a, 'relayer', call.to, call.calldata)).toBe('success');
    expect(await owed()).toBe(0n);
  });
});
