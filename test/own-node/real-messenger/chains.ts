/**
 * Anvil chains with the real TeleporterMessenger (icm-contracts, unchanged) at one address on each
 * (the deployer's first transaction, as Teleporter is deployed everywhere at one address), the Warp
 * stand-in at the precompile's address answering each chain's blockchain ID, and initializeBlockchainID
 * called. Each is a TestChain: the local service, the core and the test relayer use them as they use
 * the test messenger's chains.
 */
import { getAddress, type Address, type Hex } from 'viem';
import { startAnvil } from '../../../src/devnet/anvil';
import { blockchainIdFor, connectChain, type TestChain } from '../../../src/devnet/chains';
import { compileRealMessenger, type ContractName } from './compile';

/** Where Avalanche chains have the Warp precompile. */
export const WARP_ADDRESS: Address = '0x0200000000000000000000000000000000000005';

/** Deploys `name` from `who`'s wallet; resolves with its address. */
export async function deploy(chain: TestChain, who: 'deployer' | 'sender', name: ContractName, args: unknown[] = []): Promise<Address> {
  const c = compileRealMessenger()[name];
  const w = chain.wallet(who);
  const hash = await w.client.deployContract({ abi: c.abi, bytecode: c.bytecode, args, account: w.account, chain: w.client.chain });
  const r = await chain.client.waitForTransactionReceipt({ hash });
  if (r.status !== 'success' || !r.contractAddress) throw new Error(`${name} was not deployed on chain ${chain.chainId}`);
  return getAddress(r.contractAddress);
}

/** Sends `functionName(args)` to a contract of this folder's build as `who`; resolves once it is mined, throwing on a revert. */
export async function write(
  chain: TestChain,
  who: 'deployer' | 'sender' | 'relayer',
  to: Address,
  name: ContractName,
  functionName: string,
  args: unknown[],
): Promise<Hex> {
  const w = chain.wallet(who);
  const hash = await w.client.writeContract({
    address: to,
    abi: compileRealMessenger()[name].abi,
    functionName,
    args,
    account: w.account,
    chain: w.client.chain,
  });
  const r = await chain.client.waitForTransactionReceipt({ hash });
  if (r.status !== 'success') throw new Error(`${name}.${functionName} reverted on chain ${chain.chainId}`);
  return hash;
}

export async function startRealMessengerChain(chainId: number): Promise<TestChain> {
  const node = await startAnvil({ chainId });
  try {
    const chain = { node, chainId, ...connectChain(node, chainId) } as TestChain;
    const { hex, cb58 } = blockchainIdFor(chainId);
    Object.assign(chain, { blockchainIdHex: hex, blockchainId: cb58 });
    chain.messenger = await deploy(chain, 'deployer', 'TeleporterMessenger');
    const warp = compileRealMessenger().WarpStandIn;
    await chain.client.request({ method: 'anvil_setCode' as 'eth_chainId', params: [WARP_ADDRESS, warp.deployed] as never });
    await write(chain, 'deployer', WARP_ADDRESS, 'WarpStandIn', 'setBlockchainID', [hex]);
    await write(chain, 'deployer', chain.messenger, 'TeleporterMessenger', 'initializeBlockchainID', []);
    return chain;
  } catch (e) {
    await node.kill();
    throw e;
  }
}

/** Starts the chains at once; when one does not start, kills those that did and throws its error. */
export async function startRealMessengerChains<const Ids extends readonly number[]>(...chainIds: Ids): Promise<{ [K in keyof Ids]: TestChain }> {
  const started = await Promise.allSettled(chainIds.map(startRealMessengerChain));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await Promise.all(started.flatMap((s) => (s.status === 'fulfilled' ? [s.value.node.kill()] : [])));
    throw failed.reason;
  }
  return started.map((s) => (s as PromiseFulfilledResult<TestChain>).value) as { [K in keyof Ids]: TestChain };
}
