/**
 * The TeleporterMessenger's events, with the exact signatures of its source
 * (github.com/ava-labs/icm-contracts, contracts/teleporter/ITeleporterMessenger.sol), and the message
 * ID as the messenger computes it (TeleporterMessenger.calculateMessageID).
 */
import { encodeAbiParameters, keccak256, parseAbi, type Address, type Hex } from 'viem';

export const MESSENGER_EVENTS = parseAbi([
  'struct TeleporterMessageReceipt { uint256 receivedMessageNonce; address relayerRewardAddress; }',
  'struct TeleporterMessage { uint256 messageNonce; address originSenderAddress; bytes32 destinationBlockchainID; address destinationAddress; uint256 requiredGasLimit; address[] allowedRelayerAddresses; TeleporterMessageReceipt[] receipts; bytes message; }',
  'struct TeleporterFeeInfo { address feeTokenAddress; uint256 amount; }',
  'event BlockchainIDInitialized(bytes32 indexed blockchainID)',
  'event SendCrossChainMessage(bytes32 indexed messageID, bytes32 indexed destinationBlockchainID, TeleporterMessage message, TeleporterFeeInfo feeInfo)',
  'event AddFeeAmount(bytes32 indexed messageID, TeleporterFeeInfo updatedFeeInfo)',
  'event MessageExecutionFailed(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID, TeleporterMessage message)',
  'event MessageExecuted(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID)',
  'event ReceiveCrossChainMessage(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID, address indexed deliverer, address rewardRedeemer, TeleporterMessage message)',
  'event ReceiptReceived(bytes32 indexed messageID, bytes32 indexed destinationBlockchainID, address indexed relayerRewardAddress, TeleporterFeeInfo feeInfo)',
  'event RelayerRewardsRedeemed(address indexed redeemer, address indexed asset, uint256 amount)',
]);

/** The events that change a message's record (the others are not about one message). */
const MESSAGE_EVENT_NAMES = [
  'SendCrossChainMessage',
  'AddFeeAmount',
  'MessageExecutionFailed',
  'MessageExecuted',
  'ReceiveCrossChainMessage',
  'ReceiptReceived',
] as const;
export type MessageEventName = (typeof MESSAGE_EVENT_NAMES)[number];

export const MESSAGE_EVENTS = MESSENGER_EVENTS.filter((e): e is Extract<(typeof MESSENGER_EVENTS)[number], { name: MessageEventName }> =>
  (MESSAGE_EVENT_NAMES as readonly string[]).includes(e.name),
);

/** keccak256(abi.encode(messenger, sourceBlockchainID, destinationBlockchainID, nonce)), as the messenger computes it. */
export function calculateMessageId(messenger: Address, sourceBlockchainId: Hex, destinationBlockchainId: Hex, nonce: bigint): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'address' }, { type: 'bytes32' }, { type: 'bytes32' }, { type: 'uint256' }],
      [messenger, sourceBlockchainId, destinationBlockchainId, nonce],
    ),
  );
}
