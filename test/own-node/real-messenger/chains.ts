/**
 * Anvil chains with the real TeleporterMessenger (icm-contracts, unchanged) at one address on each
 * (the deployer's first transaction, as Teleporter is deployed everywhere at one address), the Warp
 * stand-in at the precompile's address answering each chain's blockchain ID, and initializeBlockchainID
 * called. Each is a TestChain: the local service, the core and the test relayer use them as they use
 * the test messenger's chains.
 */
import { getAddress, type Address, type Hex } from 'viem';
import { startAnvil } from '../../../src/devnet/anvil';
import { allStartedOrNone, blockchainIdFor, connectChain, type TestChain } from '../chains';
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

/** A chain with one or more messengers (versions: the same code at other addresses, as v1 and later versions run side by side). */
export type RealChain = TestChain & { messengers: Address[] };

/** The chain as one messenger version sees it (`messenger` set to that version), for the relayer, sends and config. */
export const asVersion = (chain: RealChain, i: number): TestChain => ({ ...chain, messenger: chain.messengers[i]! });

export async function startRealMessengerChain(chainId: number, o: { versions?: number } = {}): Promise<RealChain> {
  const node = await startAnvil({ chainId });
  try {
    const { hex, cb58 } = blockchainIdFor(chainId);
    const chain = { node, chainId, blockchainIdHex: hex, blockchainId: cb58, ...connectChain(node, chainId) } as RealChain;
    // The messengers first, in order, each at the deployer's next nonce: every chain has each version at one address.
    chain.messengers = [];
    for (let i = 0; i < (o.versions ?? 1); i++) chain.messengers.push(await deploy(chain, 'deployer', 'TeleporterMessenger'));
    chain.messenger = chain.messengers[0]!;
    const warp = compileRealMessenger().WarpStandIn;
    await chain.client.request({ method: 'anvil_setCode' as 'eth_chainId', params: [WARP_ADDRESS, warp.deployed] as never });
    await write(chain, 'deployer', WARP_ADDRESS, 'WarpStandIn', 'setBlockchainID', [hex]);
    for (const m of chain.messengers) await write(chain, 'deployer', m, 'TeleporterMessenger', 'initializeBlockchainID', []);
    return chain;
  } catch (e) {
    await node.kill();
    throw e;
  }
}

/** Starts the chains at once, or none (no anvil left behind). */
export async function startRealMessengerChains<const Ids extends readonly number[]>(...chainIds: Ids): Promise<{ [K in keyof Ids]: RealChain }> {
  return startRealMessengerChainsWith({}, ...chainIds);
}

export async function startRealMessengerChainsWith<const Ids extends readonly number[]>(
  o: { versions?: number },
  ...chainIds: Ids
): Promise<{ [K in keyof Ids]: RealChain }> {
  const started = await allStartedOrNone(chainIds.map((id) => startRealMessengerChain(id, o)));
  return started as { [K in keyof Ids]: RealChain };
}
