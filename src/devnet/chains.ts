/**
 * Test chains: anvil nodes with the test messenger deployed at the same address on each (same
 * deployer, same nonce, as Teleporter is deployed everywhere at one address), each with a cb58
 * blockchain ID of its own.
 */
import {
  createPublicClient,
  createWalletClient,
  http,
  keccak256,
  nonceManager,
  toBytes,
  type Address,
  type Hex,
  type PublicClient,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { encodeCb58 } from '../shared/validators';
import { startAnvil, type AnvilNode, type AnvilOptions } from './anvil';
import { compileTestMessenger } from './compile-messenger';

/** Anvil's well-known development keys (public test keys, worthless anywhere else). */
export const KEYS = {
  deployer: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  sender: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  relayer: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
} as const satisfies Record<string, Hex>;

export interface TestChain {
  node: AnvilNode;
  chainId: number;
  /** The messenger's view of this chain's ID (bytes32) and its cb58 form. */
  blockchainIdHex: Hex;
  blockchainId: string;
  messenger: Address;
  client: PublicClient;
  wallet(key: keyof typeof KEYS): { client: WalletClient; account: PrivateKeyAccount };
  /** The same key with a nonce manager: several sends in flight at once, each with its own nonce (not to mix with `wallet(key)`'s sends). */
  managedWallet(key: keyof typeof KEYS): { client: WalletClient; account: PrivateKeyAccount };
}

export function blockchainIdFor(chainId: number): { hex: Hex; cb58: string } {
  const hex = keccak256(toBytes(`teleporter-watch test chain ${chainId}`));
  return { hex, cb58: encodeCb58(toBytes(hex)) };
}

/** A node's public client and its wallets by key (each made once), as the test chains and other messengers' chains use them. */
export function connectChain(node: AnvilNode, chainId: number): Pick<TestChain, 'client' | 'wallet' | 'managedWallet'> {
  const chain = {
    id: chainId,
    name: `anvil-${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [node.url] } },
  };
  const client = createPublicClient({ chain, transport: http(node.url), cacheTime: 0, pollingInterval: 50 }) as PublicClient;
  const wallets = new Map<string, { client: WalletClient; account: PrivateKeyAccount }>();
  const walletOf = (key: keyof typeof KEYS, managed: boolean) => {
    const name = managed ? `${key}+nonces` : key;
    let w = wallets.get(name);
    if (!w) {
      const account = privateKeyToAccount(KEYS[key], managed ? { nonceManager } : {});
      w = { account, client: createWalletClient({ account, chain, transport: http(node.url) }) };
      wallets.set(name, w);
    }
    return w;
  };
  return { client, wallet: (key) => walletOf(key, false), managedWallet: (key) => walletOf(key, true) };
}

export async function startTestChain(o: AnvilOptions): Promise<TestChain> {
  const node = await startAnvil(o);
  const { client, wallet, managedWallet } = connectChain(node, o.chainId);
  const { hex, cb58 } = blockchainIdFor(o.chainId);
  const c = compileTestMessenger();
  const deployer = wallet('deployer');
  const hash = await deployer.client.deployContract({ abi: c.abi, bytecode: c.bytecode, args: [hex], account: deployer.account, chain: deployer.client.chain });
  const receipt = await client.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error('TestMessenger was not deployed');
  return { node, chainId: o.chainId, blockchainIdHex: hex, blockchainId: cb58, messenger: receipt.contractAddress, client, wallet, managedWallet };
}
