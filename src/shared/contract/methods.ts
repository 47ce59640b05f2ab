/**
 * The contract's methods: every call's input schema, which the core checks before acting on it, and its
 * result schema, from which its result type is derived. Electron's preload and the web host both carry a call generically as `invoke(method, input)`.
 */
import { z } from 'zod';
import { AlertChannelStateSchema } from '../alert-schemas';
import { invalidInput } from '../errors';
import { RelayerFigureTargetSchema, RelayerWatchInputSchema, RouteHistoryInputSchema, RouteWatchInputSchema } from '../relayer-schemas';
import { HandCallInputSchema, HandCallSchema, RelayerConfigImportInputSchema, RelayerConfigPreviewSchema } from '../relayer-config';
import { RelayerEconomicsSchema, RelayerOverviewSchema, RouteHistoryReadSchema, WatchedRelayerSchema, WatchedRouteSchema } from '../relayers';
import {
  AddressMessagesQuerySchema,
  ApiKeySchema,
  CacheQuerySchema,
  evmAddress,
  FeedInputSchema,
  ListMessagesQuerySchema,
  messageId,
  SettingsPatchSchema,
  SettingsSchema,
  StatsQuerySchema,
  TransitionQuerySchema,
  WatchInputSchema,
  WatchPatchSchema,
} from '../schemas';
import { WatchedAddressSchema } from '../transitions';
import { RelayerMetricsUrlInputSchema, RelayerOwnViewSchema } from '../relayer-own-view';
import { ActivityPageSchema, ActivityQuerySchema } from './activity';
import { AppInfoSchema, CacheSourcesSchema, DemoAddressesSchema } from './app';
import { PollStatusSchema, type MonitorEvent } from './events';
import {
  CachedMessageSchema,
  CachePageSchema,
  CacheSummarySchema,
  FoundMessageSchema,
  MessagePageSchema,
  SavedFeedSchema,
  StatsSchema,
  TransitionPageSchema,
} from './messages';
import { ApiKeyStatusSchema, ApiKeyTestResultSchema } from './settings';

const none = z.undefined().optional();
const addressOnly = z.object({ address: evmAddress }).strict();
const messageOnly = z.object({ messageId }).strict();

/** Input schema of every call, by method name. */
const MONITOR_INPUTS = {
  getAppInfo: none,
  getDemoAddresses: none,
  /** The cache's figures by source: which other sources' figures it keeps (marked in every view, counted in none). */
  getCacheSources: none,
  getSettings: none,
  updateSettings: SettingsPatchSchema,
  /** Each alert channel's delivery state: waiting alerts, failures in a row, since when, the next try. */
  alertChannelStates: none,
  getApiKeyStatus: none,
  setApiKey: z.object({ key: ApiKeySchema }).strict(),
  testApiKey: z.object({ key: ApiKeySchema.optional() }).strict().optional(),
  deleteApiKey: none,
  listWatches: none,
  addWatch: WatchInputSchema,
  updateWatch: WatchPatchSchema,
  /** forget: also delete the messages and Activity only this watch brought in (demo leftovers). */
  removeWatch: z.object({ address: evmAddress, forget: z.boolean().optional() }).strict(),
  markWatchViewed: addressOnly,
  listFeeds: none,
  addFeed: FeedInputSchema,
  removeFeed: z.object({ id: z.string().min(1).max(64) }).strict(),
  browseMessages: ListMessagesQuerySchema,
  browseAddressMessages: AddressMessagesQuerySchema,
  searchCache: CacheQuerySchema,
  getMessage: messageOnly,
  findMessage: messageOnly,
  listTransitions: TransitionQuerySchema,
  /** Activity's one timeline: the transitions and every alert's fire and resolve, newest first. */
  listActivity: ActivityQuerySchema,
  getPollStatus: none,
  pollNow: none,
  getStats: StatsQuerySchema,
  openExternal: z.object({ url: z.string().max(2048) }).strict(),
  listRelayers: none,
  addRelayer: RelayerWatchInputSchema,
  removeRelayer: addressOnly,
  listRoutes: none,
  addRoute: RouteWatchInputSchema,
  removeRoute: z.object({ id: z.string().min(1).max(64) }).strict(),
  /** Reads a watched route's history back to `hours` ago (1–24), silently, after news: its figures then hold that much. */
  readRouteHistory: RouteHistoryInputSchema,
  /** The Relayers view's figures, from the core's cache. */
  relayerOverview: none,
  /** The cached messages one figure of the overview counts (its click-through). */
  relayerFigureMessages: RelayerFigureTargetSchema,
  /** Watched relayers' fuel per chain and earnings per route, from the core's state (no request upstream). */
  relayerEconomics: none,
  /** What importing an ICM relayer's config file (its text) would add and remove; changes nothing. */
  previewRelayerConfig: RelayerConfigImportInputSchema,
  /** Imports an ICM relayer's config file: the preview's additions and removals applied. Its signing fields are never read into state. */
  importRelayerConfig: RelayerConfigImportInputSchema,
  /** The exact call to send by hand: retryMessageExecution for a failed execution, redeemRelayerRewards for redeemable rewards. */
  handCall: HandCallInputSchema,
  /** Each watched relayer's own metrics (its Prometheus endpoint) beside the chains' deliveries, from the last reads. */
  relayerOwnView: none,
  /** Sets or clears (null) a watched relayer's metrics URL; it is read at the next poll cycle. */
  setRelayerMetricsUrl: RelayerMetricsUrlInputSchema,
} as const;

export type MonitorMethod = keyof typeof MONITOR_INPUTS;
export const MONITOR_METHODS = Object.keys(MONITOR_INPUTS) as MonitorMethod[];

/** What a caller passes (before normalisation). */
export type MonitorInput<M extends MonitorMethod> = z.input<(typeof MONITOR_INPUTS)[M]>;
/** What the core receives (after validation and normalisation, e.g. checksummed addresses). */
type MonitorParsedInput<M extends MonitorMethod> = z.output<(typeof MONITOR_INPUTS)[M]>;

/** Result schema of every call, by method name: the result types below are derived from it. */
export const MONITOR_RESULTS = {
  getAppInfo: AppInfoSchema,
  getDemoAddresses: DemoAddressesSchema,
  getCacheSources: CacheSourcesSchema,
  getSettings: SettingsSchema,
  updateSettings: SettingsSchema,
  alertChannelStates: z.array(AlertChannelStateSchema),
  getApiKeyStatus: ApiKeyStatusSchema,
  setApiKey: ApiKeyStatusSchema,
  testApiKey: ApiKeyTestResultSchema,
  deleteApiKey: ApiKeyStatusSchema,
  listWatches: z.array(WatchedAddressSchema),
  addWatch: WatchedAddressSchema,
  updateWatch: WatchedAddressSchema,
  removeWatch: z.void(),
  markWatchViewed: WatchedAddressSchema,
  listFeeds: z.array(SavedFeedSchema),
  addFeed: SavedFeedSchema,
  removeFeed: z.void(),
  browseMessages: MessagePageSchema,
  browseAddressMessages: MessagePageSchema,
  searchCache: CachePageSchema,
  getMessage: CachedMessageSchema.nullable(),
  findMessage: FoundMessageSchema,
  listTransitions: TransitionPageSchema,
  listActivity: ActivityPageSchema,
  getPollStatus: PollStatusSchema,
  pollNow: PollStatusSchema,
  getStats: StatsSchema,
  openExternal: z.void(),
  listRelayers: z.array(WatchedRelayerSchema),
  addRelayer: WatchedRelayerSchema,
  removeRelayer: z.void(),
  listRoutes: z.array(WatchedRouteSchema),
  addRoute: WatchedRouteSchema,
  removeRoute: z.void(),
  readRouteHistory: RouteHistoryReadSchema,
  relayerOverview: RelayerOverviewSchema,
  relayerFigureMessages: z.array(CacheSummarySchema),
  relayerEconomics: RelayerEconomicsSchema,
  previewRelayerConfig: RelayerConfigPreviewSchema,
  importRelayerConfig: RelayerConfigPreviewSchema,
  handCall: HandCallSchema,
  relayerOwnView: RelayerOwnViewSchema,
  setRelayerMetricsUrl: RelayerOwnViewSchema,
} as const satisfies Record<MonitorMethod, z.ZodType>;

/** What a call returns. */
export type MonitorResult<M extends MonitorMethod> = z.output<(typeof MONITOR_RESULTS)[M]>;
type MonitorResults = { [M in MonitorMethod]: MonitorResult<M> };

type Optionalish<T> = undefined extends T ? [input?: T] : [input: T];

/** The API as the UI sees it. */
export type MonitorApi = {
  [M in MonitorMethod]: (...args: Optionalish<MonitorInput<M>>) => Promise<MonitorResults[M]>;
} & {
  /** Subscribe to events; returns the unsubscribe function. */
  onEvent(listener: (event: MonitorEvent) => void): () => void;
};

/** The core side: receives validated input. */
export type MonitorHandlers = {
  [M in MonitorMethod]: (input: MonitorParsedInput<M>) => Promise<MonitorResults[M]> | MonitorResults[M];
};

export const isMonitorMethod = (m: unknown): m is MonitorMethod => typeof m === 'string' && Object.prototype.hasOwnProperty.call(MONITOR_INPUTS, m);

/** Validates a call's input; throws an invalid_input MonitorError naming the field and the reason. */
export function parseMonitorInput<M extends MonitorMethod>(method: M, input: unknown): MonitorParsedInput<M> {
  const schema = MONITOR_INPUTS[method] as z.ZodType;
  const r = schema.safeParse(input ?? undefined);
  if (r.success) return r.data as MonitorParsedInput<M>;
  const issue = r.error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : undefined;
  const message = issue?.code === 'unrecognized_keys' ? `Unknown field(s): ${issue.keys.join(', ')}.` : (issue?.message ?? 'Invalid input.');
  throw invalidInput(message, field);
}
