// SPDX-License-Identifier: MIT
// A dApp's receiver that refuses messages until it is ready (its owner fixed what made it fail): the
// real messenger then stores the delivery as a failed execution, which retryMessageExecution runs
// once the receiver is ready.
pragma solidity 0.8.25;

contract FlakyReceiver {
    bool public ready;
    uint256 public received;

    function setReady() external {
        ready = true;
    }

    function receiveTeleporterMessage(bytes32, address, bytes calldata) external {
        require(ready, "FlakyReceiver: not ready");
        received++;
    }
}
