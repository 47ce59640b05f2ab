/**
 * Relayers and routes as things to watch, and the figures the Relayers view shows: the types both
 * sides of the contract share, each derived from its schema. Times are epoch ms; latencies seconds;
 * token amounts smallest units as decimal strings (exact for any number of decimals).
 */
import { z } from 'zod';
import { network } from './schemas';

const epochMs = z.number();
const count = z.number().int().nonnegative();
/** Smallest units as a decimal string. */
const units = z.string();

/** A relayer watched by its deliverer address or its reward address (either matches a delivery). */
export const WatchedRelayerSchema = z.object({
  address: z.string(),
  label: z.string(),
  network,
  /** Relayer silent: no delivery for this long ... */
  silentMinutes: z.number(),
  /** ... while one of its routes holds a message pending longer than this. */
  pendingMinutes: z.number(),
  /** The relayer-silent condition is on for this relayer. */
  alert: z.boolean(),
  createdAt: epochMs,
});
export type WatchedRelayer = z.output<typeof WatchedRelayerSchema>;

/** A route watched from a source chain to a destination chain, each its cb58 blockchain ID (however it was named: shared/chain-input.ts). */
export const WatchedRouteSchema = z.object({
  id: z.string(),
  label: z.string(),
  network,
  sourceChain: z.string(),
  destinationChain: z.string(),
  /** Route backlog: the oldest pending message is older than this. */
  backlogMinutes: z.number(),
  alert: z.boolean(),
  createdAt: epochMs,
});
export type WatchedRoute = z.output<typeof WatchedRouteSchema>;

/** A sum of one reward token. */
const TokenSumSchema = z.object({
  /** Token contract address. */
  token: z.string(),
  symbol: z.string(),
  decimals: z.number().int().nonnegative(),
  /** Smallest units. */
  value: units,
  /** Value at the prices the records carried, when every counted record carried one. */
  fiat: z.object({ currencyCode: z.string(), value: z.number() }).nullable(),
});
export type TokenSum = z.output<typeof TokenSumSchema>;

/** Gas spent on destination transactions of one chain, in its native token's smallest unit (wei). */
const GasSumSchema = z.object({
  chain: z.string(),
  symbol: z.string(),
  wei: units,
});
export type GasSum = z.output<typeof GasSumSchema>;

/** Latency from source transaction to destination transaction, seconds (null: no delivery with both times). */
const LatencyFiguresSchema = z.object({
  p50: z.number(),
  p95: z.number(),
  count,
});
export type LatencyFigures = z.output<typeof LatencyFiguresSchema>;

/** A relayer's part in one watched route's deliveries in the window. */
const RouteShareSchema = z.object({
  routeId: z.string(),
  deliveries: count,
  /** Of the route's deliveries in the window, 0..1. */
  share: z.number(),
});

const RelayerRowSchema = z.object({
  /** The watched address, else the deliverer address. */
  address: z.string(),
  network,
  watched: z.boolean(),
  label: z.string(),
  /** Reward addresses its deliveries named. */
  rewardAddresses: z.array(z.string()),
  deliveriesLastHour: count,
  deliveries24h: count,
  routes: z.array(RouteShareSchema),
  latency: LatencyFiguresSchema.nullable(),
  gas: z.array(GasSumSchema),
  rewards: z.array(TokenSumSchema),
  /** Destination transaction time of its newest delivery; null: no deliveries yet. */
  lastDeliveryAt: epochMs.nullable(),
  /** Deliveries per bucket over the last 24 h, oldest first (`bucketMs` each, the last ends now). */
  buckets: z.array(count),
});
export type RelayerRow = z.output<typeof RelayerRowSchema>;

/** How much of a watched route's history its figures hold, and the read of more going on. */
export const RouteHistorySchema = z.object({
  /** Its figures hold its deliveries from here (ms); null: the whole last day (or its whole list). */
  from: epochMs.nullable(),
  /** Its history is being read (its first read, or one asked with readRouteHistory): silent, after news. */
  reading: z.boolean(),
  /** Where the last read asked with readRouteHistory reaches back to (ms); null: none asked. */
  readsFrom: epochMs.nullable(),
});
export type RouteHistory = z.output<typeof RouteHistorySchema>;

/** readRouteHistory's answer: the route's history after the call. */
export const RouteHistoryReadSchema = RouteHistorySchema.extend({
  routeId: z.string(),
  /** False when its figures already held back to the hours asked: nothing to read. */
  started: z.boolean(),
});
export type RouteHistoryRead = z.output<typeof RouteHistoryReadSchema>;

const RouteRowSchema = z.object({
  route: WatchedRouteSchema,
  history: RouteHistorySchema,
  pending: count,
  /** Source transaction time of the oldest pending message; null when none is pending. */
  oldestPendingSince: epochMs.nullable(),
  deliveriesLastHour: count,
  deliveries24h: count,
  latency: LatencyFiguresSchema.nullable(),
  /** Relayers by deliveries in the window, most first (at most 3). */
  topRelayers: z.array(z.object({ address: z.string(), label: z.string(), deliveries: count, share: z.number() })),
});
export type RouteRow = z.output<typeof RouteRowSchema>;

export const RelayerOverviewSchema = z.object({
  /** When the figures were computed. */
  at: epochMs,
  /**
   * The figures count deliveries from this time on (ms): where the watched routes' first reads reached
   * back to (routeHistoryHours), later than a day ago; null when they hold the whole last day.
   */
  historyFrom: epochMs.nullable(),
  bucketMs: z.number().positive(),
  relayers: z.array(RelayerRowSchema),
  routes: z.array(RouteRowSchema),
});
export type RelayerOverview = z.output<typeof RelayerOverviewSchema>;

/** What a figure of the overview counts, for its click-through. */
export const RELAYER_FIGURES = ['deliveries1h', 'deliveries24h', 'pending', 'latency'] as const;
export type RelayerFigure = (typeof RELAYER_FIGURES)[number];

/** One watched relayer's wallet on one chain (a destination chain it delivers on). */
const RelayerFuelSchema = z.object({
  /** The watched relayer's address (deliverer). */
  relayer: z.string(),
  relayerLabel: z.string(),
  /** cb58 blockchain ID. */
  blockchainId: z.string(),
  chainName: z.string(),
  /** Wei, decimal string (null: never read). */
  balance: units.nullable(),
  symbol: z.string(),
  decimals: z.number().int().nonnegative(),
  /** The balance read's native token price in USD. */
  usdPrice: z.number().nullable(),
  /** Wei spent by deliveries in the last hour. */
  burnLastHour: units,
  /** Wei per hour over the hours of the last 24 h the figures hold (`burnHours`). */
  burnPerHourLastDay: units,
  /** The hours `burnPerHourLastDay` is over: 24 once a day is held, fewer (at least 1) before. */
  burnHours: z.number().positive(),
  /**
   * The last read less the gas burnt since, at the last hour's rate: an estimate, rounded to what it
   * supports and capped at a year (src/shared/time-to-empty.ts; null: nothing burnt in the last hour, or never read).
   */
  hoursToEmpty: z.number().nullable(),
  /** Epoch ms of the last successful balance read. */
  readAt: epochMs.nullable(),
  /** The last read's failure, redacted (null: the last read succeeded, or none yet). */
  readError: z.string().nullable(),
  /** The fuel alert is firing for this wallet. */
  low: z.boolean(),
});
export type RelayerFuel = z.output<typeof RelayerFuelSchema>;

/** A relayer's earnings on one route over a window. */
const RouteEarningsSchema = z.object({
  relayer: z.string(),
  relayerLabel: z.string(),
  sourceChain: z.string(),
  destinationChain: z.string(),
  /** "A → B": the chains' names joined by ARROW (src/shared/vocabulary.ts). */
  routeLabel: z.string(),
  /** Deliveries in the window. */
  deliveries: count,
  /** Receipt delivered: the reward went to the relayer's reward address. */
  paid: z.array(TokenSumSchema),
  /** Delivered, receipt not back yet. */
  owed: z.array(TokenSumSchema),
  /** Messages whose fee is owed (at most MAX_OWED_MESSAGES_PER_CALL): what a Receipts call (sendSpecifiedReceipts) names. */
  owedMessageIds: z.array(z.string()),
  /** Wei of the destination chain's native token. */
  gasSpent: units,
  gasSymbol: z.string(),
  gasDecimals: z.number().int().nonnegative(),
  /** Gas at the native balance read's price (null: no price known). */
  gasUsd: z.number().nullable(),
  /** Paid rewards minus gas in USD; null when a price is missing. */
  profitUsd: z.number().nullable(),
  failedExecutions: z.object({ count, messageIds: z.array(z.string()) }),
  /** Own nodes only (checkRelayerRewardAmount); null elsewhere. */
  redeemable: z.array(TokenSumSchema).nullable(),
});
export type RouteEarnings = z.output<typeof RouteEarningsSchema>;

/** A watched route's failed executions (any relayer) over the last hour and day, and its failed-execution alert. */
const failedIds = z.object({ count, messageIds: z.array(z.string()) });
const RouteFailureRowSchema = z.object({
  routeId: z.string(),
  /** The watch's label ('' when unlabelled). */
  label: z.string(),
  /** "A → B". */
  routeLabel: z.string(),
  /** The watch's chains (cb58 blockchain IDs, or EVM chain IDs as given). */
  sourceChain: z.string(),
  destinationChain: z.string(),
  /** The route's alert switch (the failed-execution alert follows it, as the backlog alert does). */
  alert: z.boolean(),
  /** The failed-execution alert is firing for this route. */
  firing: z.boolean(),
  /** Exact counts; IDs newest first, at most 100. */
  hour: failedIds,
  day: failedIds,
});
export type RouteFailureRow = z.output<typeof RouteFailureRowSchema>;

export const RelayerEconomicsSchema = z.object({
  /** When the figures were computed (epoch ms): the windows end here. */
  at: epochMs,
  /** The earnings and burn count deliveries from this time on (ms), as RelayerOverview's; null: the whole last day. */
  historyFrom: epochMs.nullable(),
  fuel: z.array(RelayerFuelSchema),
  earnings: z.object({ hour: z.array(RouteEarningsSchema), day: z.array(RouteEarningsSchema) }),
  fuelThresholdHours: z.number(),
  /** The shortest gap between two reads of a wallet: while its alert fires or its time to empty nears the threshold. */
  balanceReadEveryMinutes: z.number(),
  /** The longest a wallet goes unread otherwise: between reads its balance is the last read less the gas burnt since. */
  balanceMaxAgeMinutes: z.number(),
  /** One row per watched route. */
  routeFailures: z.array(RouteFailureRowSchema),
  /** Settings' failed-execution threshold per route and hour (0: the alert is off). */
  failedExecutionsPerHour: z.number(),
});
export type RelayerEconomics = z.output<typeof RelayerEconomicsSchema>;
