/**
 * Delivery to the real TeleporterMessenger, as the ICM relayer does it but with the Warp stand-in in
 * place of signatures: the source's message, ABI-encoded as the messenger emitted it to Warp, is set as
 * the destination's verified Warp message from the source's messenger, then
 * receiveCrossChainMessage(0, rewardAddress) is sent. Two transactions per delivery: use it with one
 * delivery in flight (the TestRelayer's default).
 */
import { encodeAbiParameters, type AbiParameter } from 'viem';
import { MESSENGER_EVENTS } from '../../../src/chain-index/messenger-events';
import { SEND_GAS, type Delivery } from '../../../src/devnet/relayer';
import { compileRealMessenger } from './compile';
import { WARP_ADDRESS } from './chains';

/** The TeleporterMessage tuple, as SendCrossChainMessage declares it. */
const MESSAGE_PARAM = (MESSENGER_EVENTS.find((e) => e.name === 'SendCrossChainMessage')!.inputs as readonly AbiParameter[]).find((i) => i.name === 'message')!;

export const throughWarp: Delivery = async ({ source, destination, message, wallet: w }) => {
  const { WarpStandIn, TeleporterMessenger } = compileRealMessenger();
  const payload = encodeAbiParameters([MESSAGE_PARAM], [message]);
  const set = await w.client.writeContract({
    address: WARP_ADDRESS,
    abi: WarpStandIn.abi,
    functionName: 'setVerifiedMessage',
    args: [source.blockchainIdHex, source.messenger, payload],
    account: w.account,
    chain: w.client.chain,
  });
  await destination.client.waitForTransactionReceipt({ hash: set });
  return w.client.writeContract({
    address: destination.messenger,
    abi: TeleporterMessenger.abi,
    functionName: 'receiveCrossChainMessage',
    args: [0, w.account.address],
    gas: SEND_GAS,
    account: w.account,
    chain: w.client.chain,
  });
};
