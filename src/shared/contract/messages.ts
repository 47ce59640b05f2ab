/**
 * The contract's messages area: pages of the Data API, the local cache, saved feeds, the transition log
 * and the charts' figures. Every type is derived from the schema that describes it.
 */
import { z } from 'zod';
import { TeleporterMessageSchema } from '../messages';
import { RecordSkipSchema } from '../record-bounds';
import { TRACKING_LIMIT_HOURS } from '../policy';
import { FeedFilterSchema, network, NotifyPrefsSchema } from '../schemas';
import { TransitionSchema } from '../transitions';
import { DataSourceKindSchema } from './settings';

const epochMs = z.number();
const count = z.number().int().nonnegative();

export const SavedFeedSchema = z.object({
  id: z.string(),
  name: z.string(),
  network,
  filter: FeedFilterSchema,
  notify: NotifyPrefsSchema,
  createdAt: epochMs,
  /** True until the first baseline of what the feed matches has been taken (its changes alert only after). */
  baselinePending: z.boolean(),
  /** Its baseline stopped at its page cap (BASELINE_MAX_PAGES): history is followed back to here only (ms; null: not cut). */
  historyCutAt: epochMs.nullable(),
});
export type SavedFeed = z.output<typeof SavedFeedSchema>;

/** The data source a page was read from. */
const PageSourceSchema = z.object({
  kind: DataSourceKindSchema,
  /** Host name of the base URL (e.g. 127.0.0.1:4012 or glacier-api.avax.network). */
  host: z.string(),
  simulated: z.boolean(),
});
export type PageSource = z.output<typeof PageSourceSchema>;

export const MessagePageSchema = z.object({
  messages: z.array(TeleporterMessageSchema),
  nextPageToken: z.string().optional(),
  /** Records the API sent that were not used: no usable messageId, or skipped at the boundary (`skipped` says why). */
  rejected: count,
  fetchedAt: epochMs,
  /** The records of this page skipped at the boundary (src/shared/record-bounds.ts), each with its reason and field. */
  skipped: z.array(RecordSkipSchema).optional(),
  /** Where the rows came from (set by the core when it answers a browse call). */
  source: PageSourceSchema.optional(),
});
export type MessagePage = z.output<typeof MessagePageSchema>;

/** Why the monitor stopped tracking a message: it passed one of its tracking limits (src/shared/policy.ts). */
const trackingEndReason = z.enum(Object.keys(TRACKING_LIMIT_HOURS) as [keyof typeof TRACKING_LIMIT_HOURS, ...(keyof typeof TRACKING_LIMIT_HOURS)[]]);
export type TrackingEndReason = z.output<typeof trackingEndReason>;
export { TRACKING_LIMIT_HOURS };

/** A message no longer tracked (re-checked) because it passed a tracking limit, e.g. "no longer tracked: receipt missing after 24 h". */
const TrackingEndedSchema = z.object({
  reason: trackingEndReason,
  /** When tracking ended (ms). */
  at: epochMs,
  /** The limit it passed, in hours. */
  afterHours: z.number(),
});
export type TrackingEnded = z.output<typeof TrackingEndedSchema>;

export const CachedMessageSchema = z.object({
  message: TeleporterMessageSchema,
  network,
  firstSeenAt: epochMs,
  lastSeenAt: epochMs,
  /** The data source that last showed it (src/shared/sources.ts): another than the current one's figures are marked "from <source>, as of <lastSeenAt>". */
  source: z.string(),
  /** Watched addresses this message involves. */
  watchedAddresses: z.array(z.string()),
  /** Present once the message passed a tracking limit and is no longer re-checked. */
  trackingEnded: TrackingEndedSchema.optional(),
});
export type CachedMessage = z.output<typeof CachedMessageSchema>;

/** A message opened by its ID (Find by ID): from the Data API's single-message operation, else the local cache. */
export const FoundMessageSchema = z.object({
  message: TeleporterMessageSchema,
  /** api: the data source answered now; cache: the local copy (the data source failed or no longer has it). */
  source: z.enum(['api', 'cache']),
  /** The local cache's entry, when the monitor has seen the message. */
  cached: CachedMessageSchema.nullable(),
  /** Why the cached copy is shown instead of a fresh one. */
  note: z.string().optional(),
});
export type FoundMessage = z.output<typeof FoundMessageSchema>;

/**
 * One cache search result: what a result row shows, read from the store's columns (the full record
 * comes from getMessage when a row is opened, so a keystroke's answer stays small).
 */
export const CacheSummarySchema = z.object({
  messageId: z.string(),
  network,
  /** The API's status (the reported one for records of an unknown shape). */
  status: z.string(),
  receiptDelivered: z.boolean(),
  from: z.string().nullable(),
  /** cb58 blockchain ID, else the EVM chain ID, else null. */
  sourceChain: z.string().nullable(),
  destinationChain: z.string().nullable(),
  /** Source transaction time, else destination transaction time (seconds); null when neither is known. */
  time: z.number().nullable(),
  lastSeenAt: epochMs,
  /** The data source that last showed it (src/shared/sources.ts). */
  source: z.string(),
});
export type CacheSummary = z.output<typeof CacheSummarySchema>;

export const CachePageSchema = z.object({
  items: z.array(CacheSummarySchema),
  /** Matches counted, up to a cap (the core counts at most 1,000). */
  total: count,
  /** True when there are more matches than `total` (show "1,000+"). */
  totalCapped: z.boolean().optional(),
});
export type CachePage = z.output<typeof CachePageSchema>;

export const TransitionPageSchema = z.object({
  items: z.array(TransitionSchema),
  /** Pass as beforeId for older entries; absent at the end. */
  nextBeforeId: z.number().int().optional(),
});
export type TransitionPage = z.output<typeof TransitionPageSchema>;

const StatsBucketSchema = z.object({
  /** Bucket start, epoch ms. */
  start: epochMs,
  new: count,
  left_pending: count,
  receipt_delivered: count,
  stuck: count,
});
export type StatsBucket = z.output<typeof StatsBucketSchema>;

export const StatsSchema = z.object({
  buckets: z.array(StatsBucketSchema),
  bucketMs: z.number().positive(),
  /** Delivery latency (destination minus source timestamp) of delivered cached messages, seconds. */
  deliveryLatency: z.object({ p50: z.number().nullable(), p95: z.number().nullable(), count }),
  byStatus: z.record(z.string(), count),
});
export type Stats = z.output<typeof StatsSchema>;
