/** The contract's messages area: pages of the Data API, the local cache, saved feeds, the transition log and the charts' figures. */
import type { TeleporterMessage } from '../messages';
import { TRACKING_LIMIT_HOURS } from '../policy';
import type { Transition } from '../transitions';
import type { Network } from '../validators';
import type { DataSource, FeedFilter, NotifyPrefs } from './settings';

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

/** Why the monitor stopped tracking a message: it passed one of its tracking limits (src/shared/policy.ts). */
export type TrackingEndReason = keyof typeof TRACKING_LIMIT_HOURS;
export { TRACKING_LIMIT_HOURS };
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
