/**
 * The contract's transitions and the one batched event that carries a poll cycle's worth of them.
 * Schemas first, types derived, so the web transport can check what crosses the socket.
 */
import { z } from 'zod';
import { NotifyPrefsSchema, network, transitionKind } from './schemas';

/** What Activity, the log and a notification say of a reorg that took a delivery or receipt back. */
export function undoneText(kind: 'delivery_undone' | 'receipt_undone', chainName: string): string {
  return `${kind === 'delivery_undone' ? 'delivery' : 'receipt'} undone by a reorg on ${chainName}`;
}

/** Who a message is watched through: a watched address or a saved feed (never an encoded string). */
const WatcherRefSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('address'), address: z.string().min(1) }).strict(),
  z.object({ kind: z.literal('feed'), feedId: z.string().min(1) }).strict(),
]);
export type WatcherRef = z.output<typeof WatcherRefSchema>;

export const TransitionSchema = z.object({
  id: z.number().int().positive(),
  messageId: z.string().min(1),
  kind: transitionKind,
  fromStatus: z.string().nullable(),
  toStatus: z.string(),
  /** Epoch ms when the change was detected. */
  at: z.number(),
  network,
  sourceBlockchainId: z.string(),
  destinationBlockchainId: z.string(),
  /** The watched addresses and saved feeds the message is watched through. */
  watchers: z.array(WatcherRefSchema),
  /** The data source that showed the change (src/shared/sources.ts): Activity marks another source's. */
  source: z.string(),
  /** On live events: whether a watcher's "Notify on" choices ask for this kind (absent in the log). */
  notify: z.boolean().optional(),
});
export type Transition = z.output<typeof TransitionSchema>;

export const WatchedAddressSchema = z.object({
  address: z.string(),
  label: z.string(),
  network,
  notify: NotifyPrefsSchema,
  createdAt: z.number(),
  lastViewedAt: z.number().nullable(),
  /** Messages observed for this address since it was last viewed. */
  unread: z.number().int().nonnegative(),
  /** True until the first baseline of its history has been taken. */
  baselinePending: z.boolean(),
  /** Its baseline stopped at its page cap (BASELINE_MAX_PAGES): history is followed back to here only (ms; null: not cut). */
  historyCutAt: z.number().nullable(),
});
export type WatchedAddress = z.output<typeof WatchedAddressSchema>;

/**
 * One poll cycle's transitions, in the order they were logged, sent once after the cycle; `watches`
 * are the watched addresses those transitions touched, as they now stand (their unread counts), so
 * the UI updates its rows in place instead of asking for the whole watchlist again.
 */
export const TransitionsEventSchema = z.object({
  type: z.literal('transitions'),
  transitions: z.array(TransitionSchema).min(1),
  watches: z.array(WatchedAddressSchema),
});
export type TransitionsEvent = z.output<typeof TransitionsEventSchema>;

/** The addresses among a transition's watchers. */
export const watchedAddressesOf = (t: Pick<Transition, 'watchers'>): string[] => t.watchers.flatMap((w) => (w.kind === 'address' ? [w.address] : []));
