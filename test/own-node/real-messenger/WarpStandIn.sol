// SPDX-License-Identifier: MIT
// A stand-in for the Warp precompile (0x0200000000000000000000000000000000000005), which anvil lacks,
// installed there with anvil_setCode. It answers the calls the real TeleporterMessenger makes, with the
// precompile's ABI: the chain's blockchain ID, sendWarpMessage (an event, as the precompile's log), and
// the one verified message a test relayer sets before it calls receiveCrossChainMessage(0, …). Real
// Warp takes that message, signed by the source's validators, from the transaction's access list; here
// whoever sets it is trusted, which only tests may do.
pragma solidity 0.8.25;

import {WarpMessage, WarpBlockHash} from "@subnet-evm/IWarpMessenger.sol";

contract WarpStandIn {
    event SendWarpMessage(address indexed sender, bytes32 indexed messageID, bytes message);

    bytes32 private _blockchainID;
    WarpMessage private _verified;
    bool private _hasVerified;

    function setBlockchainID(bytes32 blockchainID) external {
        _blockchainID = blockchainID;
    }

    function setVerifiedMessage(bytes32 sourceChainID, address originSenderAddress, bytes calldata payload) external {
        _verified = WarpMessage(sourceChainID, originSenderAddress, payload);
        _hasVerified = true;
    }

    function sendWarpMessage(bytes calldata payload) external returns (bytes32 messageID) {
        messageID = keccak256(abi.encode(_blockchainID, msg.sender, payload));
        emit SendWarpMessage(msg.sender, messageID, payload);
    }

    function getVerifiedWarpMessage(uint32 index) external view returns (WarpMessage memory message, bool valid) {
        if (index != 0 || !_hasVerified) return (message, false);
        return (_verified, true);
    }

    function getVerifiedWarpBlockHash(uint32) external pure returns (WarpBlockHash memory warpBlockHash, bool valid) {
        return (warpBlockHash, false);
    }

    function getBlockchainID() external view returns (bytes32) {
        return _blockchainID;
    }
}
