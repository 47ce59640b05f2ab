/**
 * Relayers and routes as things to watch, and the figures the Relayers view shows: the types both
 * sides of the contract share. Times are epoch ms; latencies seconds; token amounts smallest units
 * as decimal strings (exact for any number of decimals).
 */
import type { Network } from './validators';

/** A relayer watched by its deliverer address or its reward address (either matches a delivery). */
export interface WatchedRelayer {
  address: string;
  label: string;
  network: Network;
  /** Relayer silent: no delivery for this long ... */
  silentMinutes: number;
  /** ... while one of its routes holds a message pending longer than this. */
  pendingMinutes: number;
  /** The relayer-silent condition is on for this relayer. */
  alert: boolean;
  createdAt: number;
}

/** A route watched from a source chain to a destination chain (cb58 blockchain ID or EVM chain ID, as resolved). */
export interface WatchedRoute {
  id: string;
  label: string;
  network: Network;
  sourceChain: string;
  destinationChain: string;
  /** Route backlog: the oldest pending message is older than this. */
  backlogMinutes: number;
  alert: boolean;
  createdAt: number;
}

/** A sum of one reward token. */
export interface TokenSum {
  /** Token contract address. */
  token: string;
  symbol: string;
  decimals: number;
  /** Smallest units. */
  value: string;
  /** Value at the prices the records carried, when every counted record carried one. */
  fiat: { currencyCode: string; value: number } | null;
}

/** Gas spent on destination transactions of one chain, in its native token's smallest unit (wei). */
export interface GasSum {
  chain: string;
  symbol: string;
  wei: string;
}

/** Latency from source transaction to destination transaction, seconds (null: no delivery with both times). */
export interface LatencyFigures {
  p50: number;
  p95: number;
  count: number;
}

/** A relayer's part in one watched route's deliveries in the window. */
interface RouteShare {
  routeId: string;
  deliveries: number;
  /** Of the route's deliveries in the window, 0..1. */
  share: number;
}

export interface RelayerRow {
  /** The watched address, else the deliverer address. */
  address: string;
  network: Network;
  watched: boolean;
  label: string;
  /** Reward addresses its deliveries named. */
  rewardAddresses: string[];
  deliveriesLastHour: number;
  deliveries24h: number;
  routes: RouteShare[];
  latency: LatencyFigures | null;
  gas: GasSum[];
  rewards: TokenSum[];
  /** Destination transaction time of its newest delivery; null: no deliveries yet. */
  lastDeliveryAt: number | null;
  /** Deliveries per bucket over the last 24 h, oldest first (`bucketMs` each, the last ends now). */
  buckets: number[];
}

export interface RouteRow {
  route: WatchedRoute;
  pending: number;
  /** Source transaction time of the oldest pending message; null when none is pending. */
  oldestPendingSince: number | null;
  deliveriesLastHour: number;
  deliveries24h: number;
  latency: LatencyFigures | null;
  /** Relayers by deliveries in the window, most first (at most 3). */
  topRelayers: { address: string; label: string; deliveries: number; share: number }[];
}

export interface RelayerOverview {
  /** When the figures were computed. */
  at: number;
  /**
   * The figures count deliveries from this time on (ms): where the watched routes' first reads reached
   * back to (routeHistoryHours), later than a day ago; null when they hold the whole last day.
   */
  historyFrom: number | null;
  bucketMs: number;
  relayers: RelayerRow[];
  routes: RouteRow[];
}

/** What a figure of the overview counts, for its click-through. */
export type RelayerFigure = 'deliveries1h' | 'deliveries24h' | 'pending' | 'latency';

/** One watched relayer's wallet on one chain (a destination chain it delivers on). */
export interface RelayerFuel {
  /** The watched relayer's address (deliverer). */
  relayer: string;
  relayerLabel: string;
  /** cb58 blockchain ID. */
  blockchainId: string;
  chainName: string;
  /** Wei, decimal string (null: never read). */
  balance: string | null;
  symbol: string;
  decimals: number;
  /** The balance read's native token price in USD. */
  usdPrice: number | null;
  /** Wei spent by deliveries in the last hour. */
  burnLastHour: string;
  /** Wei per hour over the last 24 h. */
  burnPerHourLastDay: string;
  /** The last read less the gas burnt since, at the last hour's rate: an estimate (null: nothing burnt in the last hour, or never read). */
  hoursToEmpty: number | null;
  /** Epoch ms of the last successful balance read. */
  readAt: number | null;
  /** The last read's failure, redacted (null: the last read succeeded, or none yet). */
  readError: string | null;
  /** The fuel alert is firing for this wallet. */
  low: boolean;
}

/** A relayer's earnings on one route over a window. */
export interface RouteEarnings {
  relayer: string;
  relayerLabel: string;
  sourceChain: string;
  destinationChain: string;
  /** "A → B": the chains' names joined by ARROW (src/shared/vocabulary.ts). */
  routeLabel: string;
  /** Deliveries in the window. */
  deliveries: number;
  /** Receipt delivered: the reward went to the relayer's reward address. */
  paid: TokenSum[];
  /** Delivered, receipt not back yet. */
  owed: TokenSum[];
  /** Wei of the destination chain's native token. */
  gasSpent: string;
  gasSymbol: string;
  gasDecimals: number;
  /** Gas at the native balance read's price (null: no price known). */
  gasUsd: number | null;
  /** Paid rewards minus gas in USD; null when a price is missing. */
  profitUsd: number | null;
  failedExecutions: { count: number; messageIds: string[] };
  /** Own nodes only (checkRelayerRewardAmount); null elsewhere. */
  redeemable: TokenSum[] | null;
}

export interface RelayerEconomics {
  /** When the figures were computed (epoch ms): the windows end here. */
  at: number;
  /** The earnings and burn count deliveries from this time on (ms), as RelayerOverview's; null: the whole last day. */
  historyFrom: number | null;
  fuel: RelayerFuel[];
  earnings: { hour: RouteEarnings[]; day: RouteEarnings[] };
  fuelThresholdHours: number;
  /** The shortest gap between two reads of a wallet: while its alert fires or its time to empty nears the threshold. */
  balanceReadEveryMinutes: number;
  /** The longest a wallet goes unread otherwise: between reads its balance is the last read less the gas burnt since. */
  balanceMaxAgeMinutes: number;
}
