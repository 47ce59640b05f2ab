/**
 * The contract's Activity area: one timeline of what happened, the watched messages' transitions and every
 * alert episode's fire and resolve (relayer, route, fuel, failed executions, …), newest first, filtered by
 * kind and severity, paged by a cursor that later arrivals never move. Schemas first, types derived.
 */
import { z } from 'zod';
import { evmAddress, network, transitionKind } from '../schemas';
import { TransitionSchema } from '../transitions';
import { EPISODE_KINDS, SEVERITIES } from '../vocabulary';

const episodeKind = z.enum(EPISODE_KINDS);
const severity = z.enum(SEVERITIES);

/** One fire or resolve of an alert episode, as Activity lists it: in words (names, not raw IDs). */
export const AlertEntrySchema = z.object({
  kind: z.literal('alert'),
  /** This entry's ID (its own sequence, apart from the transitions'). */
  id: z.number().int().positive(),
  episodeId: z.number().int().positive(),
  episodeKind,
  phase: z.enum(['fire', 'resolve']),
  /** warning: a fire; success: a resolve; info: closed without an announcement (no longer watched, alert off). */
  severity,
  title: z.string(),
  body: z.string(),
  /** The watched relayer's or route's label (its address or route when unlabelled). */
  subject: z.string(),
  network,
  /** cb58 blockchain IDs of the route (or the chain) it concerns, when it concerns one. */
  sourceChain: z.string().min(1).optional(),
  destinationChain: z.string().min(1).optional(),
  /** The watched relayer's address, when it concerns one. */
  relayer: z.string().min(1).optional(),
  /** Epoch ms when it fired or resolved. */
  at: z.number(),
  /** The data source it was judged from (src/shared/sources.ts): Activity marks another source's. */
  source: z.string(),
});
export type AlertEntry = z.output<typeof AlertEntrySchema>;

/** An Activity item: a message transition (its `kind` a transition kind) or an alert entry (`kind: 'alert'`). */
export const ActivityItemSchema = z.discriminatedUnion('kind', [TransitionSchema, AlertEntrySchema]);
export type ActivityItem = z.output<typeof ActivityItemSchema>;

/** Where a page ended: the last item's time, whether it was an alert, and its ID. Entries arriving later sort above it. */
export const ActivityCursorSchema = z.object({ at: z.number(), kind: z.enum(['message', 'alert']), id: z.number().int().positive() }).strict();
export type ActivityCursor = z.output<typeof ActivityCursorSchema>;

/**
 * Each filter left out means all; an empty list means none of that group (`kinds: []`: alerts only,
 * `alertKinds: []`: messages only). `address`: only that watched address's messages (no alerts).
 */
export const ActivityQuerySchema = z
  .object({
    kinds: z.array(transitionKind).optional(),
    alertKinds: z.array(episodeKind).optional(),
    severities: z.array(severity).optional(),
    address: evmAddress.optional(),
    /** The previous page's `next`: entries older than it. */
    before: ActivityCursorSchema.optional(),
    limit: z.number().int().min(1).max(500).optional(),
  })
  .strict();

export const ActivityPageSchema = z.object({
  /** Newest first: by time, an alert above a transition of the same moment, then by ID. */
  items: z.array(ActivityItemSchema),
  /** Pass as `before` for older entries; absent at the end. */
  next: ActivityCursorSchema.optional(),
});
export type ActivityPage = z.output<typeof ActivityPageSchema>;

/** Alert episodes that fired or resolved just now, oldest first: Activity adds them without reading again. */
export const AlertsEventSchema = z.object({
  type: z.literal('alerts'),
  alerts: z.array(AlertEntrySchema).min(1),
});
