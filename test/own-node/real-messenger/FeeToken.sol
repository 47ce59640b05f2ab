// SPDX-License-Identifier: MIT
// The ERC-20 a sender pays relayer fees in: the real messenger moves fees with transferFrom and pays
// rewards with transfer, so a fee needs a real token.
pragma solidity 0.8.25;

import {ERC20} from "@openzeppelin/contracts@5.0.2/token/ERC20/ERC20.sol";

contract FeeToken is ERC20 {
    constructor(address holder, uint256 amount) ERC20("Relayer Fee", "FEE") {
        _mint(holder, amount);
    }
}
