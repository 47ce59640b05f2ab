import { z } from 'zod';
import { AlertChannelListSchema, refuseLinkLocalTargets } from './alert-schemas';
import { NETWORKS, PAGE_SIZE_MAX, PAGE_SIZE_MIN, parseBlockchainId, parseChainRef, parseEvmAddress, parseMessageId } from './validators';
import type { Parsed } from './result';
import { reservedHeaderReason } from './reserved-headers';
import { OwnNodesSchema } from './own-nodes';
import { PlanSchema } from './plans';
import { MAX_ROUTE_HISTORY_HOURS } from './policy';

/** Longest user-supplied URL accepted (a base URL is a scheme, a host and a short path). */
export const MAX_URL_CHARS = 2048;

/** Turns one of our validators into a zod schema whose issue message is the validator's message. */
function fromValidator<T>(parse: (s: unknown) => Parsed<T>) {
  return z.string().transform((s, ctx) => {
    const r = parse(s);
    if (!r.ok) {
      ctx.addIssue({ code: 'custom', message: r.error });
      return z.NEVER;
    }
    return r.value;
  });
}

export const evmAddress = fromValidator((s) => parseEvmAddress(s));
export const blockchainId = fromValidator((s) => parseBlockchainId(s));
/** cb58 blockchain ID or decimal EVM chain ID, kept as the user's canonical string. */
const chainRef = fromValidator((s) => {
  const r = parseChainRef(s);
  return r.ok ? { ok: true as const, value: r.value.value } : r;
});
export const messageId = fromValidator(parseMessageId);
export const network = z.enum(NETWORKS, { error: `network must be one of ${NETWORKS.join(', ')}.` });
export const pageSize = z
  .number({ error: 'pageSize must be a number.' })
  .int('pageSize must be a whole number.')
  .min(PAGE_SIZE_MIN, `pageSize must not be less than ${PAGE_SIZE_MIN}.`)
  .max(PAGE_SIZE_MAX, `pageSize must not be greater than ${PAGE_SIZE_MAX}.`);
export const pageToken = z.string().min(1).max(4096);

/** The transitions a watch chooses to be notified of. */
export const TRANSITION_KINDS = ['new', 'left_pending', 'receipt_delivered', 'stuck'] as const;
/** A delivery or receipt taken back by a reorg (own nodes only): announced as the watch chose for what it undoes. */
export const UNDO_KINDS = ['delivery_undone', 'receipt_undone'] as const;
export const transitionKind = z.enum([...TRANSITION_KINDS, ...UNDO_KINDS]);

export const NotifyPrefsSchema = z.object({
  new: z.boolean(),
  left_pending: z.boolean(),
  receipt_delivered: z.boolean(),
  stuck: z.boolean(),
});

export const DataSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('local') }),
  z.object({ kind: z.literal('avalanche') }),
  z.object({
    kind: z.literal('custom'),
    baseUrl: z
      .string()
      .max(MAX_URL_CHARS, `Base URL must be at most ${MAX_URL_CHARS} characters.`)
      .url('Base URL must be a full URL such as https://glacier-api.avax.network.')
      .refine((u) => /^https?:\/\//.test(u), 'Base URL must start with http:// or https://.'),
  }),
  /** "Your own nodes": the local service reads these chains' TeleporterMessenger logs over JSON-RPC. */
  z.object({ kind: z.literal('ownNodes'), ownNodes: OwnNodesSchema }),
]);

/** A whole number in a range, with messages in plain words (never zod's "Too small: expected number to be >=1"). */
export const wholeNumber = (what: string, min: [number, string], max: [number, string]) =>
  z
    .number({ error: `${what}: enter a number.` })
    .int(`${what} must be a whole number.`)
    .min(min[0], `${what} must be at least ${min[1]}.`)
    .max(max[0], `${what} must be at most ${max[1]}.`);

/** How many hours of a route's history to read: 1 to MAX_ROUTE_HISTORY_HOURS (`why` adds to the bound's words). */
export const routeHistoryHours = (why: string) =>
  wholeNumber('Route history', [1, '1 hour'], [MAX_ROUTE_HISTORY_HOURS, `${MAX_ROUTE_HISTORY_HOURS} hours${why}`]);

/** Relayer and route alert thresholds: whole minutes from 1 to 7 days. */
export const thresholdMinutes = (what: string) => wholeNumber(what, [1, '1 minute'], [10080, '7 days (10080 minutes)']);

export const SettingsSchema = z.object({
  dataSource: DataSourceSchema,
  network: network,
  /** The key header for custom and local data sources (the public API always gets x-glacier-api-key, the only one it reads). */
  apiKeyHeader: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,64}$/, 'API key header must be a plain HTTP header name (letters, digits and "-", at most 64).')
    .superRefine((name, ctx) => {
      const reason = reservedHeaderReason(name);
      if (reason) ctx.addIssue({ code: 'custom', message: reason });
    }),
  pollIntervalSeconds: wholeNumber('Poll interval', [5, '5 seconds'], [3600, '3600 seconds']),
  stuckThresholdMinutes: wholeNumber('Stuck threshold', [1, '1 minute'], [10080, '7 days (10080 minutes)']),
  notifications: z.object({ enabled: z.boolean() }).extend(NotifyPrefsSchema.shape),
  /** The Data API plan the key is on (its CU a minute and a day); `auto`: unauthenticated without a key, Free with one. */
  plan: PlanSchema,
  retentionDays: wholeNumber('Keep history', [1, '1 day'], [3650, '3650 days']),
  theme: z.enum(['system', 'light', 'dark']),
  startAtLogin: z.boolean(),
  startHidden: z.boolean(),
  /** Alertmanager and webhook channels every alerting transition is also sent to (through the outbox). */
  alertChannels: AlertChannelListSchema,
  /** Alert URLs to link-local and cloud metadata addresses (169.254.169.254, fe80::…) are refused at save and at send unless this is on. */
  allowLinkLocalAlertTargets: z.boolean(),
  /** Thresholds a relayer or route watched without its own takes (each watch keeps what it was given). */
  relayerSilentMinutes: thresholdMinutes('Silence threshold'),
  relayerPendingMinutes: thresholdMinutes('Pending threshold'),
  routeBacklogMinutes: thresholdMinutes('Backlog threshold'),
  /** The fuel alert: a watched relayer's wallet on a chain would be empty within this many hours at the last hour's rate. */
  relayerFuelThresholdHours: wholeNumber('Fuel threshold', [1, '1 hour'], [168, '7 days (168 hours)']),
  /** The failed-execution alert: a watched route (its alert on) with this many failed executions delivered in the last hour; 0 turns it off. */
  routeFailedExecutionsPerHour: wholeNumber('Failed-execution threshold', [0, '0 (off)'], [1000, '1000']),
  /** How many hours of a newly watched route's deliveries its first read takes (its figures count from there). */
  routeHistoryHours: routeHistoryHours(''),
  /** A watched relayer's metrics say it delivered this many more messages on a watched route than the chains show in the window; 0 turns it off. */
  relayerClaimExcess: wholeNumber('Unseen-deliveries threshold', [0, '0 (off)'], [100000, '100000']),
  /** A watched relayer's metrics show this many failed relays with one reason in the window; 0 turns it off. */
  relayerFailuresInWindow: wholeNumber('Relay-failures threshold', [0, '0 (off)'], [100000, '100000']),
});

/**
 * Settings as a save checks them: also refuses alert URLs to link-local and cloud metadata addresses
 * unless allowed. Stored settings are read with SettingsSchema (one saved before this check keeps its
 * other values; the dispatcher refuses such a URL at send time).
 */
export const SettingsSaveSchema = SettingsSchema.superRefine((s, ctx) =>
  refuseLinkLocalTargets(s.alertChannels, s.allowLinkLocalAlertTargets, 'settings', ctx, ['alertChannels']),
);

export const SettingsPatchSchema = SettingsSchema.partial().extend({
  notifications: SettingsSchema.shape.notifications.partial().optional(),
});

export const FeedFilterSchema = z
  .object({
    sourceBlockchainId: chainRef.optional(),
    destinationBlockchainId: chainRef.optional(),
    blockchainId: blockchainId.optional(),
    from: evmAddress.optional(),
    to: evmAddress.optional(),
  })
  .strict();

export const ListMessagesQuerySchema = FeedFilterSchema.extend({
  network: network.optional(),
  pageSize: pageSize.optional(),
  pageToken: pageToken.optional(),
}).strict();

export const AddressMessagesQuerySchema = z
  .object({
    address: evmAddress,
    network: network.optional(),
    pageSize: pageSize.optional(),
    pageToken: pageToken.optional(),
  })
  .strict();

export const WatchInputSchema = z
  .object({
    address: evmAddress,
    label: z.string().max(80, 'Label must be at most 80 characters.').optional(),
    network: network.optional(),
    notify: NotifyPrefsSchema.partial().optional(),
  })
  .strict();

export const WatchPatchSchema = z
  .object({
    address: evmAddress,
    label: z.string().max(80, 'Label must be at most 80 characters.').optional(),
    notify: NotifyPrefsSchema.partial().optional(),
  })
  .strict();

export const FeedInputSchema = z
  .object({
    name: z.string().trim().min(1, 'Feed name is required.').max(80),
    network: network.optional(),
    filter: FeedFilterSchema.refine((f) => Object.values(f).some((v) => v !== undefined), 'A feed needs at least one filter.'),
    notify: NotifyPrefsSchema.partial().optional(),
  })
  .strict();

export const TransitionQuerySchema = z
  .object({
    kinds: z.array(transitionKind).optional(),
    address: evmAddress.optional(),
    messageId: messageId.optional(),
    /** Return entries with id lower than this (cursor for older entries). */
    beforeId: z.number().int().positive().optional(),
    limit: z.number().int().min(1).max(500).optional(),
  })
  .strict();

export const CacheQuerySchema = z
  .object({
    /** Free text: matched against message ID, addresses, chain names and IDs, tx hashes. */
    text: z.string().max(200).optional(),
    status: z.string().max(64).optional(),
    address: evmAddress.optional(),
    network: network.optional(),
    limit: z.number().int().min(1).max(1000).optional(),
    offset: z.number().int().min(0).optional(),
    /** By time (the record's source transaction time, else its destination's): newest first unless `oldest`. */
    order: z.enum(['newest', 'oldest']).optional(),
  })
  .strict();

export const StatsQuerySchema = z
  .object({
    hours: z
      .number()
      .int()
      .min(1)
      .max(24 * 30),
  })
  .strict();

export const ApiKeySchema = z
  .string()
  .transform((s) => s.trim())
  .pipe(
    z
      .string()
      .min(8, 'API key looks too short (at least 8 characters).')
      .max(512)
      .regex(/^[\x21-\x7e]+$/, 'API key must be printable ASCII without spaces.'),
  );
