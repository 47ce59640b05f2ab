/**
 * The exact transactions an operator sends by hand (docs/relayer-config.md): retryMessageExecution
 * for a delivered message whose execution failed, and redeemRelayerRewards for rewards a relayer may
 * redeem. Each is the messenger's address, the ABI-encoded calldata and a `cast send` line with
 * placeholders for the RPC URL and the key: the app never holds a key to put there.
 */
import { hex } from '@scure/base';
import { encodeFunctionData, parseAbi, type Address, type Hex } from 'viem';
import { chainLabel, type OwnChain } from '../../shared/chains';
import { contractAddress, rawRecord, type TeleporterMessage } from '../../shared/messages';
import type { HandCall } from '../../shared/relayer-config';
import { decodeCb58 } from '../../shared/validators';

/** The messenger's calls, with the exact signatures of ITeleporterMessenger (ava-labs/icm-contracts). */
export const MESSENGER_CALLS = parseAbi([
  'struct TeleporterMessageReceipt { uint256 receivedMessageNonce; address relayerRewardAddress; }',
  'struct TeleporterMessage { uint256 messageNonce; address originSenderAddress; bytes32 destinationBlockchainID; address destinationAddress; uint256 requiredGasLimit; address[] allowedRelayerAddresses; TeleporterMessageReceipt[] receipts; bytes message; }',
  'function retryMessageExecution(bytes32 sourceBlockchainID, TeleporterMessage message)',
  'function redeemRelayerRewards(address feeAsset)',
  'function checkRelayerRewardAmount(address relayer, address feeAsset) view returns (uint256)',
  'struct TeleporterFeeInfo { address feeTokenAddress; uint256 amount; }',
  'function sendSpecifiedReceipts(bytes32 sourceBlockchainID, bytes32[] messageIDs, TeleporterFeeInfo feeInfo, address[] allowedRelayerAddresses) returns (bytes32)',
]);

const castLine = (to: string, calldata: string) => `cast send ${to} ${calldata} --rpc-url "$RPC_URL" --private-key "$PRIVATE_KEY"`;

/** A cb58 blockchain ID as the messenger's bytes32; null when it is not one. */
function bytes32Of(cb58: unknown): Hex | null {
  if (typeof cb58 !== 'string') return null;
  const payload = decodeCb58(cb58);
  return payload?.length === 32 ? `0x${hex.encode(payload)}` : null;
}

const isAddress = (a: unknown): a is Address => typeof a === 'string' && /^0x[0-9a-fA-F]{40}$/.test(a);
const isWhole = (n: unknown): n is string => typeof n === 'string' && /^[0-9]{1,78}$/.test(n);

/** Where a field the Data API's record lacks comes from. */
const FROM_EVENT =
  "not in the Data API's record: the destination chain's MessageExecutionFailed event carries it (choose your own nodes as the data source to have it read)";

export type HandCallResult = { ok: true; call: HandCall } | { ok: false; error: string };

/**
 * retryMessageExecution(sourceBlockchainID, message) for a delivered message whose execution failed.
 * The messenger checks the message's hash against the one it stored at the failure, so every field
 * must be exactly as delivered: a record without requiredGasLimit or allowedRelayerAddresses (the
 * Data API's) gives the call's address and says which fields are missing, and no calldata.
 */
export function retryCall(m: TeleporterMessage, own: readonly OwnChain[] = []): HandCallResult {
  const r = rawRecord(m);
  const delivered = m.status === 'delivered' || m.status === 'delivered_source_not_indexed' || r.destinationTransaction !== undefined;
  if (!delivered || r.messageExecuted !== false)
    return { ok: false, error: 'This message has no failed execution to retry (it is not delivered, or it executed).' };
  const to = contractAddress(m);
  const source = bytes32Of(r.sourceBlockchainId);
  const destination = bytes32Of(r.destinationBlockchainId);
  if (!isAddress(to) || !source || !destination) return { ok: false, error: "The message's record lacks its messenger or a chain's blockchain ID." };
  const missing: string[] = [];
  if (!isWhole(r.requiredGasLimit)) missing.push(`requiredGasLimit: ${FROM_EVENT}`);
  const allowed = r.allowedRelayerAddresses;
  if (!Array.isArray(allowed) || !allowed.every(isAddress)) missing.push(`allowedRelayerAddresses: ${FROM_EVENT}`);
  const receipts = Array.isArray(r.receipts) ? (r.receipts as { receivedMessageNonce?: unknown; relayerRewardAddress?: unknown }[]) : null;
  if (!receipts || !receipts.every((x) => isWhole(x.receivedMessageNonce) && isAddress(x.relayerRewardAddress)))
    missing.push('receipts: malformed in the record');
  if (!isWhole(r.messageNonce) || !isAddress(r.from) || !isAddress(r.to)) missing.push('messageNonce, from or to: malformed in the record');
  const destinationId = r.destinationBlockchainId as string;
  const base = {
    title: `Retry the execution of message ${m.messageId.replace(/^0x/, '').slice(0, 10)}…`,
    blockchainId: destinationId,
    chainName: chainLabel(destinationId, own),
    to,
    sender: null,
    check: null,
    next: null,
  };
  if (missing.length) return { ok: true, call: { ...base, calldata: '', cast: '', missing } };
  const calldata = encodeFunctionData({
    abi: MESSENGER_CALLS,
    functionName: 'retryMessageExecution',
    args: [
      source,
      {
        messageNonce: BigInt(r.messageNonce as string),
        originSenderAddress: r.from as Address,
        destinationBlockchainID: destination,
        destinationAddress: r.to as Address,
        requiredGasLimit: BigInt(r.requiredGasLimit as string),
        allowedRelayerAddresses: allowed as Address[],
        receipts: receipts!.map((x) => ({
          receivedMessageNonce: BigInt(x.receivedMessageNonce as string),
          relayerRewardAddress: x.relayerRewardAddress as Address,
        })),
        message: (typeof r.data === 'string' && r.data !== '' ? r.data : '0x') as Hex,
      },
    ],
  });
  return { ok: true, call: { ...base, calldata, cast: castLine(to, calldata), missing } };
}

/**
 * redeemRelayerRewards(feeAsset) on the chain the rewards are credited on, sent by the reward address
 * itself (the messenger pays msg.sender). What is left to redeem is the messenger's to say (another
 * redeem may have taken it): the call comes with the read that shows it.
 */
export function redeemCall(o: { messenger: string; blockchainId: string; relayer: string; feeAsset: string; own?: readonly OwnChain[] }): HandCall {
  const calldata = encodeFunctionData({ abi: MESSENGER_CALLS, functionName: 'redeemRelayerRewards', args: [o.feeAsset as Address] });
  return {
    title: `Redeem ${o.relayer}'s rewards in ${o.feeAsset}`,
    blockchainId: o.blockchainId,
    chainName: chainLabel(o.blockchainId, o.own ?? []),
    to: o.messenger,
    calldata,
    cast: castLine(o.messenger, calldata),
    sender: o.relayer,
    missing: [],
    check: `cast call ${o.messenger} "checkRelayerRewardAmount(address,address)(uint256)" ${o.relayer} ${o.feeAsset} --rpc-url "$RPC_URL"`,
    next: null,
  };
}

export type ReceiptsCallResult = { ok: true; call: HandCall } | { ok: false; error: string };

/**
 * sendSpecifiedReceipts(sourceBlockchainID, messageIDs, no fee, any relayer) on a route's destination
 * chain, for delivered messages whose fee is owed because their receipts never rode back (a quiet or
 * one-way route): the messenger sends them back to the source in a new message, which a relayer must
 * still deliver there before the credit can be redeemed. Anyone may send it.
 */
export function receiptsCall(o: {
  messenger: string;
  source: string;
  destination: string;
  messageIds: readonly string[];
  own?: readonly OwnChain[];
}): ReceiptsCallResult {
  const source = bytes32Of(o.source);
  if (!source || !bytes32Of(o.destination)) return { ok: false, error: "The route's chains must be cb58 blockchain IDs to build the call." };
  const ids = o.messageIds.map((id): Hex => `0x${id.replace(/^0x/, '').toLowerCase()}`);
  const calldata = encodeFunctionData({
    abi: MESSENGER_CALLS,
    functionName: 'sendSpecifiedReceipts',
    args: [source, ids, { feeTokenAddress: '0x0000000000000000000000000000000000000000', amount: 0n }, []],
  });
  const own = o.own ?? [];
  const sourceName = chainLabel(o.source, own);
  return {
    ok: true,
    call: {
      title: `Send the receipts of ${ids.length} message${ids.length === 1 ? '' : 's'} back to ${sourceName}`,
      blockchainId: o.destination,
      chainName: chainLabel(o.destination, own),
      to: o.messenger,
      calldata,
      cast: castLine(o.messenger, calldata),
      sender: null,
      missing: [],
      check: null,
      next: `It sends a message back to ${sourceName} carrying these receipts, with no fee: a relayer (yours) must deliver it there. Its receipts then credit the reward address on ${sourceName}, where the Redeem call takes them.`,
    },
  };
}
