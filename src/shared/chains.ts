import registryJson from '../../resources/chains.json';
import { shortHex } from './format';
import { canonicalNetwork, type Network } from './validators';
import { ARROW } from './vocabulary';

export interface ChainInfo {
  name: string;
  network: 'mainnet' | 'fuji';
  blockchainId: string;
  evmChainId: string;
  explorerUrl: string;
  nativeSymbol: string;
}

interface ChainRegistry {
  chains: readonly ChainInfo[];
  explorerHosts: readonly string[];
}

/** The well-known chains (resources/chains.json); every cb58 ID there is checked by a test. */
export const CHAIN_REGISTRY: ChainRegistry = registryJson as ChainRegistry;

const byBlockchainId = new Map(CHAIN_REGISTRY.chains.map((c) => [c.blockchainId, c]));
const byEvmChainId = new Map(CHAIN_REGISTRY.chains.map((c) => [c.evmChainId, c]));

export const chainByBlockchainId = (id: string): ChainInfo | undefined => byBlockchainId.get(id);
export const chainByEvmChainId = (id: string): ChainInfo | undefined => byEvmChainId.get(id);

/** Finds a chain by cb58 ID, EVM chain ID or (case-insensitive) name within a network. */
export function findChain(ref: string, network?: Network): ChainInfo | undefined {
  const s = ref.trim();
  const direct = byBlockchainId.get(s) ?? byEvmChainId.get(s);
  if (direct) return direct;
  const net = network ? canonicalNetwork(network) : undefined;
  return CHAIN_REGISTRY.chains.find((c) => c.name.toLowerCase() === s.toLowerCase() && (!net || c.network === net));
}

export const chainsOf = (network: Network): ChainInfo[] => CHAIN_REGISTRY.chains.filter((c) => c.network === canonicalNetwork(network));

/** One of your own nodes' chains as Settings knows it: its ID, the name you gave it, the EVM chain ID its node reported. */
export interface OwnChain {
  blockchainId: string;
  name?: string | undefined;
  evmChainId?: string | undefined;
}

/** Your own nodes' chains while they are the data source, else none: their names are yours only then. */
export function ownChainsOf(source: { kind: string; ownNodes?: { chains: readonly OwnChain[] } }): readonly OwnChain[] {
  return source.kind === 'ownNodes' ? (source.ownNodes?.chains ?? []) : [];
}

/**
 * A chain as people read it: an own chain's configured name, else the registry's name ("(Fuji)" on
 * Fuji), else a shortened ID. Takes a cb58 blockchain ID or an EVM chain ID.
 */
export function chainLabel(blockchainIdOrEvmId: string | undefined, own: readonly OwnChain[] = []): string {
  if (!blockchainIdOrEvmId) return 'unknown chain';
  const mine = own.find((o) => o.blockchainId === blockchainIdOrEvmId || o.evmChainId === blockchainIdOrEvmId)?.name?.trim();
  if (mine) return mine;
  const c = byBlockchainId.get(blockchainIdOrEvmId) ?? byEvmChainId.get(blockchainIdOrEvmId);
  if (c) return c.network === 'mainnet' ? c.name : `${c.name} (Fuji)`;
  return blockchainIdOrEvmId.length > 14 ? shortHex(blockchainIdOrEvmId) : blockchainIdOrEvmId;
}

/** "C-Chain → Dispatch (Fuji)": a route as views, notifications, alerts, metric labels and log lines name it. */
export const routeLabel = (sourceChain: string, destinationChain: string, own: readonly OwnChain[] = []): string =>
  `${chainLabel(sourceChain, own)} ${ARROW} ${chainLabel(destinationChain, own)}`;

/** Only https links to allow-listed explorer hosts may be opened outside the app. */
export function isAllowedExternalUrl(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  return u.protocol === 'https:' && u.username === '' && u.password === '' && u.port === '' && CHAIN_REGISTRY.explorerHosts.includes(u.hostname);
}

export const explorerTxUrl = (chain: ChainInfo, txHash: string): string => `${chain.explorerUrl}/tx/${txHash}`;
export const explorerAddressUrl = (chain: ChainInfo, address: string): string => `${chain.explorerUrl}/address/${address}`;
