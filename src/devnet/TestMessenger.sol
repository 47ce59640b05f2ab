// SPDX-License-Identifier: MIT
// A stand-in for Teleporter's TeleporterMessenger (github.com/ava-labs/icm-contracts,
// contracts/teleporter/TeleporterMessenger.sol) on chains without Warp: the same structs, the same
// events with the same signatures, the same message ID computation and receipt bookkeeping. A test
// relayer calls receiveMessage with the message it read from the source chain's event (the real
// messenger reads it from a signed Warp message instead). Fees are recorded, never transferred: a
// receipt credits the fee to the relayer's reward address, as the real messenger does, and
// redeemRelayerRewards zeroes the credit (the real one also transfers the tokens).
pragma solidity ^0.8.25;

struct TeleporterMessageReceipt {
    uint256 receivedMessageNonce;
    address relayerRewardAddress;
}

struct TeleporterMessage {
    uint256 messageNonce;
    address originSenderAddress;
    bytes32 destinationBlockchainID;
    address destinationAddress;
    uint256 requiredGasLimit;
    address[] allowedRelayerAddresses;
    TeleporterMessageReceipt[] receipts;
    bytes message;
}

struct TeleporterFeeInfo {
    address feeTokenAddress;
    uint256 amount;
}

contract TestMessenger {
    event BlockchainIDInitialized(bytes32 indexed blockchainID);
    event SendCrossChainMessage(bytes32 indexed messageID, bytes32 indexed destinationBlockchainID, TeleporterMessage message, TeleporterFeeInfo feeInfo);
    event AddFeeAmount(bytes32 indexed messageID, TeleporterFeeInfo updatedFeeInfo);
    event MessageExecutionFailed(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID, TeleporterMessage message);
    event MessageExecuted(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID);
    event ReceiveCrossChainMessage(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID, address indexed deliverer, address rewardRedeemer, TeleporterMessage message);
    event ReceiptReceived(bytes32 indexed messageID, bytes32 indexed destinationBlockchainID, address indexed relayerRewardAddress, TeleporterFeeInfo feeInfo);
    event RelayerRewardsRedeemed(address indexed redeemer, address indexed asset, uint256 amount);

    /** Receipts sent along with each new message at most (the real messenger's value). */
    uint256 public constant MAX_RECEIPTS = 5;

    bytes32 public blockchainID;
    uint256 public messageNonce;

    mapping(bytes32 => TeleporterFeeInfo) public sentFee;
    mapping(bytes32 => bool) public sentOpen;
    mapping(bytes32 => uint256) public receivedNonce;
    mapping(bytes32 => address) public rewardAddressOf;
    mapping(bytes32 => TeleporterMessageReceipt[]) private receiptQueue;
    mapping(bytes32 => uint256) private receiptHead;
    /** The hash of each message whose execution failed, until a retry runs it (the real messenger's receivedFailedMessageHashes). */
    mapping(bytes32 => bytes32) public receivedFailedMessageHashes;
    /** Relayer reward address -> fee token -> amount it may redeem (the real messenger's _relayerRewardAmounts). */
    mapping(address => mapping(address => uint256)) private relayerRewardAmounts;

    constructor(bytes32 blockchainID_) {
        blockchainID = blockchainID_;
        emit BlockchainIDInitialized(blockchainID_);
    }

    function calculateMessageID(bytes32 sourceBlockchainID, bytes32 destinationBlockchainID, uint256 nonce) public view returns (bytes32) {
        return keccak256(abi.encode(address(this), sourceBlockchainID, destinationBlockchainID, nonce));
    }

    /** Like sendCrossChainMessage: the outstanding receipts for the destination ride along. */
    function sendCrossChainMessage(
        bytes32 destinationBlockchainID,
        address destinationAddress,
        TeleporterFeeInfo calldata feeInfo,
        uint256 requiredGasLimit,
        address[] calldata allowedRelayerAddresses,
        bytes calldata message
    ) external returns (bytes32) {
        TeleporterMessageReceipt[] memory receipts = takeReceipts(destinationBlockchainID);
        return send(destinationBlockchainID, destinationAddress, feeInfo, requiredGasLimit, allowedRelayerAddresses, receipts, message);
    }

    /** Like sendSpecifiedReceipts: an empty message to the source chain carrying the named receipts. */
    function sendSpecifiedReceipts(
        bytes32 sourceBlockchainID,
        bytes32[] calldata messageIDs,
        TeleporterFeeInfo calldata feeInfo,
        address[] calldata allowedRelayerAddresses
    ) external returns (bytes32) {
        TeleporterMessageReceipt[] memory receipts = new TeleporterMessageReceipt[](messageIDs.length);
        for (uint256 i; i < messageIDs.length; ++i) {
            uint256 nonce = receivedNonce[messageIDs[i]];
            require(nonce != 0, "TestMessenger: message not received");
            receipts[i] = TeleporterMessageReceipt(nonce, rewardAddressOf[messageIDs[i]]);
        }
        return send(sourceBlockchainID, address(0), feeInfo, 0, allowedRelayerAddresses, receipts, new bytes(0));
    }

    function addFeeAmount(bytes32 messageID, address feeTokenAddress, uint256 additionalFeeAmount) external {
        require(sentOpen[messageID], "TestMessenger: message not open");
        require(sentFee[messageID].feeTokenAddress == feeTokenAddress, "TestMessenger: fee token mismatch");
        sentFee[messageID].amount += additionalFeeAmount;
        emit AddFeeAmount(messageID, sentFee[messageID]);
    }

    /** What receiveCrossChainMessage does once the Warp message is verified; `executionFails` picks the outcome. */
    function receiveMessage(bytes32 sourceBlockchainID, TeleporterMessage calldata message, address relayerRewardAddress, bool executionFails) external {
        require(message.destinationBlockchainID == blockchainID, "TestMessenger: invalid destination chain ID");
        bytes32 messageID = calculateMessageID(sourceBlockchainID, blockchainID, message.messageNonce);
        require(receivedNonce[messageID] == 0, "TestMessenger: message already received");
        require(message.messageNonce != 0, "TestMessenger: zero message nonce");
        receivedNonce[messageID] = message.messageNonce;
        if (relayerRewardAddress != address(0)) rewardAddressOf[messageID] = relayerRewardAddress;
        for (uint256 i; i < message.receipts.length; ++i) markReceipt(sourceBlockchainID, message.receipts[i]);
        receiptQueue[sourceBlockchainID].push(TeleporterMessageReceipt(message.messageNonce, relayerRewardAddress));
        emit ReceiveCrossChainMessage(messageID, sourceBlockchainID, msg.sender, relayerRewardAddress, message);
        if (message.message.length > 0) {
            if (executionFails) {
                receivedFailedMessageHashes[messageID] = keccak256(abi.encode(message));
                emit MessageExecutionFailed(messageID, sourceBlockchainID, message);
            } else emit MessageExecuted(messageID, sourceBlockchainID);
        }
    }

    /**
     * As the real messenger: runs a failed message again when it is given exactly as delivered (its hash
     * is checked), once. The stand-in's execution always succeeds on a retry (the real one calls the
     * destination contract and reverts when that fails again).
     */
    function retryMessageExecution(bytes32 sourceBlockchainID, TeleporterMessage calldata message) external {
        bytes32 messageID = calculateMessageID(sourceBlockchainID, blockchainID, message.messageNonce);
        bytes32 messageHash = receivedFailedMessageHashes[messageID];
        require(messageHash != bytes32(0), "TestMessenger: message not found");
        require(keccak256(abi.encode(message)) == messageHash, "TestMessenger: invalid message hash");
        delete receivedFailedMessageHashes[messageID];
        emit MessageExecuted(messageID, sourceBlockchainID);
    }

    /** What `relayer` may redeem in `feeAsset`: the fees of its messages whose receipts came back. */
    function checkRelayerRewardAmount(address relayer, address feeAsset) external view returns (uint256) {
        return relayerRewardAmounts[relayer][feeAsset];
    }

    /** As the real messenger: the caller's whole credit in `feeAsset`, refused when there is none. */
    function redeemRelayerRewards(address feeAsset) external {
        uint256 amount = relayerRewardAmounts[msg.sender][feeAsset];
        require(amount > 0, "TestMessenger: zero reward balance");
        delete relayerRewardAmounts[msg.sender][feeAsset];
        emit RelayerRewardsRedeemed(msg.sender, feeAsset, amount);
    }

    function send(
        bytes32 destinationBlockchainID,
        address destinationAddress,
        TeleporterFeeInfo memory feeInfo,
        uint256 requiredGasLimit,
        address[] memory allowedRelayerAddresses,
        TeleporterMessageReceipt[] memory receipts,
        bytes memory message
    ) private returns (bytes32) {
        uint256 nonce = ++messageNonce;
        bytes32 messageID = calculateMessageID(blockchainID, destinationBlockchainID, nonce);
        TeleporterMessage memory m = TeleporterMessage(nonce, msg.sender, destinationBlockchainID, destinationAddress, requiredGasLimit, allowedRelayerAddresses, receipts, message);
        sentFee[messageID] = feeInfo;
        sentOpen[messageID] = true;
        emit SendCrossChainMessage(messageID, destinationBlockchainID, m, feeInfo);
        return messageID;
    }

    function takeReceipts(bytes32 chain) private returns (TeleporterMessageReceipt[] memory out) {
        TeleporterMessageReceipt[] storage q = receiptQueue[chain];
        uint256 head = receiptHead[chain];
        uint256 n = q.length - head;
        if (n > MAX_RECEIPTS) n = MAX_RECEIPTS;
        out = new TeleporterMessageReceipt[](n);
        for (uint256 i; i < n; ++i) out[i] = q[head + i];
        receiptHead[chain] = head + n;
    }

    /** A receipt for one of our messages came back from the chain it went to: the message is known delivered. */
    function markReceipt(bytes32 destinationBlockchainID, TeleporterMessageReceipt calldata receipt) private {
        bytes32 messageID = calculateMessageID(blockchainID, destinationBlockchainID, receipt.receivedMessageNonce);
        if (!sentOpen[messageID]) return; // already receipted, or never sent: nothing to pay (as in the real messenger)
        sentOpen[messageID] = false;
        TeleporterFeeInfo memory fee = sentFee[messageID];
        if (fee.amount > 0) relayerRewardAmounts[receipt.relayerRewardAddress][fee.feeTokenAddress] += fee.amount;
        emit ReceiptReceived(messageID, destinationBlockchainID, receipt.relayerRewardAddress, sentFee[messageID]);
    }
}
