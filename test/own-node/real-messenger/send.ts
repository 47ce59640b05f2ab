/** A message sent through the real messenger's sendCrossChainMessage(TeleporterMessageInput), its fee paid in an ERC-20 the sender approved. */
import type { Address, Hex } from 'viem';
import { SEND_GAS, sentIn } from '../../../src/devnet/relayer';
import type { TestChain } from '../../../src/devnet/chains';
import { compileRealMessenger } from './compile';
import { write } from './chains';

const ZERO: Address = '0x0000000000000000000000000000000000000000';

export interface RealSend {
  to: Address;
  fee?: { token: Address; amount: bigint };
  requiredGasLimit?: bigint;
  allowedRelayers?: Address[];
  data?: Hex;
}

/** Sends from the chain's `sender`; resolves with the message ID (0x-hex) once mined. */
export async function sendRealMessage(source: TestChain, destination: TestChain, o: RealSend): Promise<Hex> {
  if (o.fee) await write(source, 'sender', o.fee.token, 'FeeToken', 'approve', [source.messenger, o.fee.amount]);
  const w = source.wallet('sender');
  const hash = await w.client.writeContract({
    address: source.messenger,
    abi: compileRealMessenger().TeleporterMessenger.abi,
    functionName: 'sendCrossChainMessage',
    args: [
      {
        destinationBlockchainID: destination.blockchainIdHex,
        destinationAddress: o.to,
        feeInfo: { feeTokenAddress: o.fee?.token ?? ZERO, amount: o.fee?.amount ?? 0n },
        requiredGasLimit: o.requiredGasLimit ?? 100_000n,
        allowedRelayerAddresses: o.allowedRelayers ?? [],
        message: o.data ?? '0x',
      },
    ],
    gas: SEND_GAS,
    account: w.account,
    chain: w.client.chain,
  });
  return (await sentIn(source, hash)).messageId;
}
