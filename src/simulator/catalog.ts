/**
 * The fixed parts of simulated traffic: reward tokens (real contract addresses and decimals), the
 * teleporter contract, and how busy each chain is. Addresses are normalised to EIP-55 at load.
 */
import { toChecksumAddress } from '../shared/validators';
import { CHAIN_REGISTRY, type ChainInfo } from '../shared/chains';

const TELEPORTER_CONTRACT = toChecksumAddress('0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf'.toLowerCase());
/**
 * A second messenger deployment (a made-up address standing for a newer TeleporterMessenger version):
 * with `messengerVersions: 2` it sends on the same routes, its nonces overlapping the first's.
 */
const SECOND_MESSENGER = toChecksumAddress('0x7a5e8e4b5e2c1c3a9d0f6b2e4c8a1d3f5b7e9c20');
/** Both versions' addresses; index = version - 1. */
export const MESSENGERS = [TELEPORTER_CONTRACT, SECOND_MESSENGER] as const;

export interface RewardToken {
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  logoUri: string;
  /** USD price (the API sends Money.value as a number). */
  usd: number;
  /** Typical reward range in whole tokens. */
  min: number;
  max: number;
}

const token = (address: string, t: Omit<RewardToken, 'address'>): RewardToken => ({ address: toChecksumAddress(address.toLowerCase()), ...t });

const USDC = {
  name: 'USD Coin',
  symbol: 'USDC',
  decimals: 6,
  logoUri: 'https://assets.coingecko.com/coins/images/6319/large/usdc.png',
  usd: 0.9998,
  min: 0.05,
  max: 5,
};
const WAVAX = {
  name: 'Wrapped AVAX',
  symbol: 'WAVAX',
  decimals: 18,
  logoUri: 'https://assets.coingecko.com/coins/images/12559/large/Avalanche_Circle_RedWhite_Trans.png',
  usd: 24.87,
  min: 0.001,
  max: 0.2,
};
const USDT = {
  name: 'TetherToken',
  symbol: 'USDt',
  decimals: 6,
  logoUri: 'https://assets.coingecko.com/coins/images/325/large/Tether.png',
  usd: 1.0002,
  min: 0.05,
  max: 5,
};

export const REWARD_TOKENS: Record<'mainnet' | 'fuji', readonly (readonly [RewardToken, number])[]> = {
  mainnet: [
    [token('0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E', USDC), 5],
    [token('0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7', WAVAX), 3],
    [token('0x9702230A8Ea53601f5cD2dc00fDBc13d4dF4A8c7', USDT), 2],
  ],
  fuji: [
    [token('0x5425890298aed601595a70AB815c96711a31Bc65', USDC), 5],
    [token('0xd00ae08403B9bbb9124bB305C09058E32C39A48c', WAVAX), 4],
  ],
};

/** Share of traffic per network, and how much more the C-Chain talks than an L1. */
export const NETWORK_WEIGHTS = [
  ['mainnet', 7],
  ['fuji', 3],
] as const;
const C_CHAIN_WEIGHT = 4;

export const chainWeights = (network: 'mainnet' | 'fuji'): (readonly [ChainInfo, number])[] =>
  CHAIN_REGISTRY.chains.filter((c) => c.network === network).map((c) => [c, c.name === 'C-Chain' ? C_CHAIN_WEIGHT : 1] as const);

/** Typical gas price in wei per chain kind: C-Chain in nAVAX, L1s cheaper. */
export const gasPriceWei = (chain: ChainInfo): bigint => (chain.name === 'C-Chain' ? 25_000_000_000n : 1_000_000_000n);
