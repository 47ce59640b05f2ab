/**
 * The one contract between the UI and the core: every call and event, with payload types.
 * Electron's preload and the web host both carry it generically as `invoke(method, input)`;
 * the core validates every input against `MONITOR_INPUTS` before acting on it.
 */
import { z } from 'zod';
import type { ErrorInfo } from './errors';
import { invalidInput } from './errors';
import type { TeleporterMessage } from './messages';
import {
  AddressMessagesQuerySchema,
  ApiKeySchema,
  CacheQuerySchema,
  FeedInputSchema,
  ListMessagesQuerySchema,
  SettingsPatchSchema,
  SettingsSchema,
  StatsQuerySchema,
  TransitionQuerySchema,
  WatchInputSchema,
  WatchPatchSchema,
  NotifyPrefsSchema,
  FeedFilterSchema,
  evmAddress,
  messageId,
  TRANSITION_KINDS,
  UNDO_KINDS,
} from './schemas';
import type { Network } from './validators';
import {
  DEFAULT_BACKLOG_MINUTES,
  DEFAULT_FUEL_THRESHOLD_HOURS,
  DEFAULT_PENDING_MINUTES,
  DEFAULT_SILENT_MINUTES,
  RelayerFigureTargetSchema,
  RelayerWatchInputSchema,
  RouteWatchInputSchema,
} from './relayer-schemas';
import type { RelayerEconomics, RelayerOverview, WatchedRelayer, WatchedRoute } from './relayers';
import type { OwnNodeStatus } from './own-nodes';
import type { Transition, TransitionsEvent, WatchedAddress } from './transitions';
import type { Severity } from './vocabulary';

export type { Transition, TransitionsEvent, WatchedAddress, WatcherRef } from './transitions';
export { TransitionsEventSchema, watchedAddressesOf } from './transitions';

export type Settings = z.output<typeof SettingsSchema>;
export type SettingsPatch = z.input<typeof SettingsPatchSchema>;
export type DataSource = Settings['dataSource'];
export type NotifyPrefs = z.output<typeof NotifyPrefsSchema>;
export type FeedFilter = z.output<typeof FeedFilterSchema>;
export type NotifyKind = (typeof TRANSITION_KINDS)[number];
export type TransitionKind = NotifyKind | (typeof UNDO_KINDS)[number];

export const DEFAULT_NOTIFY: NotifyPrefs = { new: false, left_pending: true, receipt_delivered: true, stuck: true };

export const DEFAULT_SETTINGS: Settings = {
  dataSource: { kind: 'local' },
  network: 'mainnet',
  apiKeyHeader: 'x-glacier-api-key',
  pollIntervalSeconds: 30,
  stuckThresholdMinutes: 30,
  notifications: { enabled: true, ...DEFAULT_NOTIFY },
  plan: 'auto',
  retentionDays: 30,
  theme: 'system',
  startAtLogin: false,
  startHidden: false,
  alertChannels: [],
  relayerSilentMinutes: DEFAULT_SILENT_MINUTES,
  relayerPendingMinutes: DEFAULT_PENDING_MINUTES,
  routeBacklogMinutes: DEFAULT_BACKLOG_MINUTES,
  relayerFuelThresholdHours: DEFAULT_FUEL_THRESHOLD_HOURS,
};

export const AVALANCHE_DATA_API_BASE_URL = 'https://glacier-api.avax.network';

/** Which program runs the core: the desktop app, the web host, or the headless watcher (whose `--web` serves the same page). */
export type ShellName = 'electron' | 'web' | 'headless';

export interface AppInfo {
  version: string;
  shell: ShellName;
  /** Where data comes from right now. */
  dataSource: { kind: DataSource['kind']; baseUrl: string; network: Network; simulated: boolean };
}

/** How a demo relayer persona of the local service behaves (its `/_local/info`). */
export type DemoRelayerBehaviour = 'fast' | 'slow' | 'outage' | 'takeover' | 'steady';

/** A simulated relayer of the embedded demo, with the routes it delivers on (cb58 blockchain IDs). */
export interface DemoRelayer {
  address: string;
  name: string;
  behaviour: DemoRelayerBehaviour;
  description: string;
  routes: { source: string; destination: string }[];
}

/** The embedded demo's busiest addresses and relayers (empty unless the data source is the local service). */
export interface DemoAddresses {
  addresses: string[];
  relayers: DemoRelayer[];
}

export interface ApiKeyStatus {
  hasApiKey: boolean;
  /** keychain: in the OS keychain; memory: this session only (no keychain available); none. */
  storage: 'keychain' | 'memory' | 'none';
  /** Why the keychain cannot be used, and what to install. */
  keychainError?: string;
}

export interface ApiKeyTestResult {
  ok: boolean;
  message: string;
  error?: ErrorInfo;
}

export interface SavedFeed {
  id: string;
  name: string;
  network: Network;
  filter: FeedFilter;
  notify: NotifyPrefs;
  createdAt: number;
  /** True until the first baseline of what the feed matches has been taken (its changes alert only after). */
  baselinePending: boolean;
}

export interface MessagePage {
  messages: TeleporterMessage[];
  nextPageToken?: string;
  /** Records the API sent that had no usable messageId. */
  rejected: number;
  fetchedAt: number;
  /** Where the rows came from (set by the core when it answers a browse call). */
  source?: PageSource;
}

/** The data source a page was read from. */
export interface PageSource {
  kind: DataSource['kind'];
  /** Host name of the base URL (e.g. 127.0.0.1:4012 or glacier-api.avax.network). */
  host: string;
  simulated: boolean;
}

/** Why the monitor stopped tracking a message: it passed one of its tracking limits. */
export type TrackingEndReason = 'receipt_missing' | 'pending_too_long';
/** The tracking limits, in hours: a receipt missing this long after the delivery; pending this long after sending. */
export const TRACKING_LIMIT_HOURS: Record<TrackingEndReason, number> = { receipt_missing: 24, pending_too_long: 7 * 24 };
/** A message no longer tracked (re-checked) because it passed a tracking limit, e.g. "no longer tracked: receipt missing after 24 h". */
export interface TrackingEnded {
  reason: TrackingEndReason;
  /** When tracking ended (ms). */
  at: number;
  /** The limit it passed, in hours. */
  afterHours: number;
}

export interface CachedMessage {
  message: TeleporterMessage;
  network: Network;
  firstSeenAt: number;
  lastSeenAt: number;
  /** Watched addresses this message involves. */
  watchedAddresses: string[];
  /** Present once the message passed a tracking limit and is no longer re-checked. */
  trackingEnded?: TrackingEnded;
}

/** A message opened by its ID (Find by ID): from the Data API's single-message operation, else the local cache. */
export interface FoundMessage {
  message: TeleporterMessage;
  /** api: the data source answered now; cache: the local copy (the data source failed or no longer has it). */
  source: 'api' | 'cache';
  /** The local cache's entry, when the monitor has seen the message. */
  cached: CachedMessage | null;
  /** Why the cached copy is shown instead of a fresh one. */
  note?: string;
}

/**
 * One cache search result: what a result row shows, read from the store's columns (the full record
 * comes from getMessage when a row is opened, so a keystroke's answer stays small).
 */
export interface CacheSummary {
  messageId: string;
  network: Network;
  /** The API's status (the reported one for records of an unknown shape). */
  status: string;
  receiptDelivered: boolean;
  from: string | null;
  /** cb58 blockchain ID, else the EVM chain ID, else null. */
  sourceChain: string | null;
  destinationChain: string | null;
  /** Source transaction time, else destination transaction time (seconds); null when neither is known. */
  time: number | null;
  lastSeenAt: number;
}

export interface CachePage {
  items: CacheSummary[];
  /** Matches counted, up to a cap (the core counts at most 1,000). */
  total: number;
  /** True when there are more matches than `total` (show "1,000+"). */
  totalCapped?: boolean;
}

export interface TransitionPage {
  items: Transition[];
  /** Pass as beforeId for older entries; absent at the end. */
  nextBeforeId?: number;
}

export type PollState = 'idle' | 'polling' | 'rate_limited' | 'offline' | 'error' | 'stopped';

export interface PollStatus {
  state: PollState;
  lastSuccessAt: number | null;
  lastAttemptAt: number | null;
  nextRunAt: number | null;
  rateLimitedUntil: number | null;
  lastError: ErrorInfo | null;
  requestsLastMinute: number;
  /** Requests a minute the day's quota sustains (the pace the poller plans on). */
  budgetPerMinute: number;
  /** Today's spend against the plan (absent before the first data source is known). */
  quota?: QuotaStatus;
  /**
   * How far behind the reads are when the budget cut the last cycle short: now less the start of the
   * last cycle that read everything it planned (null: not behind).
   */
  behindMs?: number | null;
  /** Messages still tracked: pending, or delivered but awaiting a receipt. */
  tracked: number;
  watching: number;
  /** With "your own nodes" as the data source: how each chain's node is doing (down, slow, pruned, rate limited, wrong chain). */
  ownNodes?: OwnNodeStatus[];
  /**
   * Records found in the last hour later than the overlap guarantees (10 min): the largest lateness,
   * and the lateness past which a record is not followed (absent: none that late).
   */
  lateRecords?: { maxLateSec: number; limitSec: number };
}

/** Today's spend of compute units (CU) against the plan's quota; the day resets at 00:00 UTC. */
export interface QuotaStatus {
  /** unauthenticated, free, base, growth, pro, custom (or "requests per minute" for a plain rate). */
  plan: string;
  cuPerMinute: number;
  cuPerDay: number;
  spentCuToday: number;
  requestsToday: number;
  cuLastMinute: number;
  /** CU a minute over the last few minutes. */
  paceCuPerMinute: number;
  /** Today's spend at the reset if the current pace holds. */
  projectedCuToday: number;
  /** At the current pace, when the day's quota would run out (null: it lasts the day). */
  runsOutAt: number | null;
  /** The next 00:00 UTC. */
  resetsAt: number;
  /** warning: the current pace would spend 80 % of the day's quota or more; exhausted: today's share is spent. */
  level: 'ok' | 'warning' | 'exhausted';
}

export interface StatsBucket {
  /** Bucket start, epoch ms. */
  start: number;
  new: number;
  left_pending: number;
  receipt_delivered: number;
  stuck: number;
}

export interface Stats {
  buckets: StatsBucket[];
  bucketMs: number;
  /** Delivery latency (destination minus source timestamp) of delivered cached messages, seconds. */
  deliveryLatency: { p50: number | null; p95: number | null; count: number };
  byStatus: Record<string, number>;
}

/** A desktop notification the core decided to show (already coalesced); the shell displays it. */
export interface NotificationPayload {
  /** Outbox ID: the shell acknowledges by resolving the notifier; never shown twice. */
  id: number;
  title: string;
  body: string;
  /** warning: an outage or a stuck message (never summed up, stays until dismissed); success: a recovery; info: routine. Absent from an older core: info. */
  severity?: Severity;
  /** The message to open when clicked (absent for a coalesced summary of several). */
  messageId?: string;
  transitionIds: number[];
}

export type MonitorEvent =
  /** One per poll cycle that logged transitions (src/shared/transitions.ts). */
  | TransitionsEvent
  | { type: 'notification'; notification: NotificationPayload }
  | { type: 'poll-status'; status: PollStatus }
  | { type: 'watchlist-changed' }
  | { type: 'settings-changed'; settings: Settings }
  | { type: 'api-key-changed'; status: ApiKeyStatus }
  | { type: 'focus-message'; messageId: string }
  /** A watched relayer's fuel or earnings changed: reload `relayerEconomics`. */
  | { type: 'relayer-economics-changed' };

const none = z.undefined().optional();
const addressOnly = z.object({ address: evmAddress }).strict();
const messageOnly = z.object({ messageId }).strict();

/** Input schema of every call, by method name. */
export const MONITOR_INPUTS = {
  getAppInfo: none,
  getDemoAddresses: none,
  getSettings: none,
  updateSettings: SettingsPatchSchema,
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
  /** The Relayers view's figures, from the core's cache. */
  relayerOverview: none,
  /** The cached messages one figure of the overview counts (its click-through). */
  relayerFigureMessages: RelayerFigureTargetSchema,
  /** Watched relayers' fuel per chain and earnings per route, from the core's state (no request upstream). */
  relayerEconomics: none,
} as const;

export type MonitorMethod = keyof typeof MONITOR_INPUTS;
export const MONITOR_METHODS = Object.keys(MONITOR_INPUTS) as MonitorMethod[];

/** What a caller passes (before normalisation). */
export type MonitorInput<M extends MonitorMethod> = z.input<(typeof MONITOR_INPUTS)[M]>;
/** What the core receives (after validation and normalisation, e.g. checksummed addresses). */
export type MonitorParsedInput<M extends MonitorMethod> = z.output<(typeof MONITOR_INPUTS)[M]>;

export interface MonitorResults {
  getAppInfo: AppInfo;
  getDemoAddresses: DemoAddresses;
  getSettings: Settings;
  updateSettings: Settings;
  getApiKeyStatus: ApiKeyStatus;
  setApiKey: ApiKeyStatus;
  testApiKey: ApiKeyTestResult;
  deleteApiKey: ApiKeyStatus;
  listWatches: WatchedAddress[];
  addWatch: WatchedAddress;
  updateWatch: WatchedAddress;
  removeWatch: void;
  markWatchViewed: WatchedAddress;
  listFeeds: SavedFeed[];
  addFeed: SavedFeed;
  removeFeed: void;
  browseMessages: MessagePage;
  browseAddressMessages: MessagePage;
  searchCache: CachePage;
  getMessage: CachedMessage | null;
  findMessage: FoundMessage;
  listTransitions: TransitionPage;
  getPollStatus: PollStatus;
  pollNow: PollStatus;
  getStats: Stats;
  openExternal: void;
  listRelayers: WatchedRelayer[];
  addRelayer: WatchedRelayer;
  removeRelayer: void;
  listRoutes: WatchedRoute[];
  addRoute: WatchedRoute;
  removeRoute: void;
  relayerOverview: RelayerOverview;
  relayerFigureMessages: CacheSummary[];
  relayerEconomics: RelayerEconomics;
}

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

/** IPC channels of the Electron bridge (defined in ./ipc-channels so the preload can import them alone). */
export { IPC_INVOKE_CHANNEL, IPC_EVENT_CHANNEL } from './ipc-channels';

/**
 * What a transport offers the renderer: Electron's preload exposes exactly this as `window.monitor`;
 * the web host's client implements it over fetch + WebSocket.
 */
export interface MonitorTransport {
  invoke(method: MonitorMethod, input: unknown): Promise<InvokeResponse>;
  subscribe(listener: (event: MonitorEvent) => void): () => void;
}

/** The wire shapes both transports use. */
export type InvokeResponse<T = unknown> = { ok: true; value: T } | { ok: false; error: ErrorInfo };

/** Builds a typed MonitorApi from a generic `invoke` + `subscribe` transport. */
export function createMonitorClient(transport: MonitorTransport, makeError: (e: ErrorInfo) => Error): MonitorApi {
  const api: Record<string, unknown> = {
    onEvent: (listener: (event: MonitorEvent) => void) => transport.subscribe(listener),
  };
  for (const method of MONITOR_METHODS) {
    api[method] = async (input?: unknown) => {
      const res = await transport.invoke(method, input);
      if (!res.ok) throw makeError(res.error);
      return res.value;
    };
  }
  return api as MonitorApi;
}
