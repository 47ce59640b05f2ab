/**
 * The contract's events area: every event the core (or a shell on its behalf) sends to the UI. Each
 * type is derived from its zod schema, so a receiver checks what crossed a boundary (Electron IPC, the
 * web host's socket) against the very definition the sender compiles with.
 */
import { z } from 'zod';
import { ErrorInfoSchema } from '../errors';
import { OwnNodeStatusSchema } from '../own-nodes';
import { SkippedRecordsSchema } from '../record-bounds';
import { PLAN_NAMES } from '../plans';
import { SettingsSchema } from '../schemas';
import { SourceHealthSchema } from '../source-health';
import { TransitionsEventSchema } from '../transitions';
import type { Severity } from '../vocabulary';
import { AlertsEventSchema } from './activity';
import { ApiKeyStatusSchema } from './settings';

export type { Transition, TransitionsEvent, WatchedAddress, WatcherRef } from '../transitions';
export { TransitionsEventSchema, watchedAddressesOf } from '../transitions';

const epochMs = z.number();

/** The plan does not keep up with the list (PollStatus.keepUp). */
export const KeepUpSchema = z.object({
  /** Requests a minute the late-record reads of a plan that keeps up would take. */
  needPerMinute: z.number().int().nonnegative(),
  /** The smallest published plan whose day pace pays them (null: none does). */
  planThatWould: z.enum(PLAN_NAMES).nullable(),
});
export type KeepUp = z.output<typeof KeepUpSchema>;

export const PollStatusSchema = z.object({
  state: z.enum(['idle', 'polling', 'rate_limited', 'offline', 'error', 'stopped']),
  lastSuccessAt: epochMs.nullable(),
  lastAttemptAt: epochMs.nullable(),
  nextRunAt: epochMs.nullable(),
  rateLimitedUntil: epochMs.nullable(),
  lastError: ErrorInfoSchema.nullable(),
  requestsLastMinute: z.number().nonnegative(),
  /** Requests a minute the day's quota sustains (the pace the poller plans on). */
  budgetPerMinute: z.number().nonnegative(),
  /** Today's spend against the plan (absent before the first data source is known). */
  quota: z
    .object({
      /** unauthenticated, free, base, growth, pro, custom (or "requests per minute" for a plain rate). */
      plan: z.string(),
      cuPerMinute: z.number().nonnegative(),
      cuPerDay: z.number().nonnegative(),
      spentCuToday: z.number().nonnegative(),
      requestsToday: z.number().int().nonnegative(),
      cuLastMinute: z.number().nonnegative(),
      /** CU a minute over the last few minutes. */
      paceCuPerMinute: z.number().nonnegative(),
      /** Today's spend at the reset if the current pace holds. */
      projectedCuToday: z.number().nonnegative(),
      /** At the current pace, when the day's quota would run out (null: it lasts the day). */
      runsOutAt: epochMs.nullable(),
      /** The next 00:00 UTC. */
      resetsAt: epochMs,
      /** warning: the current pace would spend 80 % of the day's quota or more; exhausted: today's share is spent. */
      level: z.enum(['ok', 'warning', 'exhausted']),
    })
    .optional(),
  /**
   * How far behind the reads are when the budget cut the last cycle short: now less the start of the
   * last cycle that read everything it planned (null: not behind).
   */
  behindMs: z.number().nonnegative().nullable().optional(),
  /**
   * The list is busier than the plan's day pace pays for its late-record reads (echo mode): nothing is
   * lost, records and changes show up to 30 min late. What those reads would cost a minute, and the
   * smallest plan that pays them (null: none). Absent or null: the plan keeps up.
   */
  keepUp: KeepUpSchema.nullable().optional(),
  /** Messages still tracked: pending, delivered but awaiting a receipt, or a failed execution awaiting its retry (its first hour). */
  tracked: z.number().int().nonnegative(),
  /** Everything the poller reads for: watched addresses, saved feeds and watched routes together. */
  watching: z.number().int().nonnegative(),
  /** `watching` by what it counts (the status bar names each: the Watchlist lists addresses and feeds, Relayers the routes). */
  watchers: z.object({ addresses: z.number().int().nonnegative(), feeds: z.number().int().nonnegative(), routes: z.number().int().nonnegative() }).optional(),
  /**
   * The current data source's health (up, degraded, down, since when, why; with your own nodes each
   * chain's), and whether alerts are judged now (absent before the first cycle).
   */
  source: SourceHealthSchema.optional(),
  /** With "your own nodes" as the data source: how each chain's node is doing (down, slow, pruned, rate limited, wrong chain). */
  ownNodes: z.array(OwnNodeStatusSchema).optional(),
  /**
   * Records found in the last hour later than the overlap guarantees (10 min): the largest lateness,
   * and the lateness past which a record is not followed (absent: none that late, no stall). `stall`:
   * the indexer showed nothing new for `stalledSec` (resumed within the hour); the sweeps after it read
   * back to `sweptToMs` (`limited`: the stall was longer than they reach, records held before are not followed).
   */
  lateRecords: z
    .object({
      maxLateSec: z.number().nonnegative(),
      limitSec: z.number().positive(),
      stall: z.object({ stalledSec: z.number().nonnegative(), sweptToMs: epochMs, limited: z.boolean() }).optional(),
    })
    .optional(),
  /** Records the current data source sent that were skipped at the boundary since the core started (absent: none). */
  skippedRecords: SkippedRecordsSchema.optional(),
});

const NotificationPayloadSchema = z.object({
  /** Outbox ID: the shell acknowledges by resolving the notifier; never shown twice. */
  id: z.number().int(),
  title: z.string(),
  body: z.string(),
  /** warning: an outage or a stuck message (never summed up, stays until dismissed); success: a recovery; info: routine. Absent from an older core: info. */
  severity: z.enum(['warning', 'success', 'info']).optional(),
  /** The message to open when clicked (absent for a coalesced summary of several). */
  messageId: z.string().min(1).optional(),
  transitionIds: z.array(z.number().int()),
});

/** Every event the core (or a shell on its behalf) sends to the UI, told apart by `type`. */
const MonitorEventSchema = z.discriminatedUnion('type', [
  TransitionsEventSchema,
  /** Alert episodes fired or resolved: Activity lists them at once. */
  AlertsEventSchema,
  z.object({ type: z.literal('notification'), notification: NotificationPayloadSchema }),
  z.object({ type: z.literal('poll-status'), status: PollStatusSchema }),
  z.object({ type: z.literal('watchlist-changed') }),
  z.object({ type: z.literal('settings-changed'), settings: SettingsSchema }),
  z.object({ type: z.literal('api-key-changed'), status: ApiKeyStatusSchema }),
  z.object({ type: z.literal('focus-message'), messageId: z.string().min(1) }),
  /** A watched relayer's fuel or earnings changed: reload `relayerEconomics`. */
  z.object({ type: z.literal('relayer-economics-changed') }),
  /** A watched relayer's own metrics were read (or could not be): the Relayers view re-reads relayerOwnView. */
  z.object({ type: z.literal('relayer-own-view-changed') }),
]);

/** An event checked against the contract, or why it was refused (the first issue, with its path). */
export function parseMonitorEvent(raw: unknown): { ok: true; event: MonitorEvent } | { ok: false; reason: string } {
  const r = MonitorEventSchema.safeParse(raw);
  if (r.success) return { ok: true, event: r.data };
  const issue = r.error.issues[0];
  const at = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  return { ok: false, reason: `${issue?.message ?? 'invalid event'}${at}` };
}

export type PollStatus = z.output<typeof PollStatusSchema>;
export type PollState = PollStatus['state'];
/** Today's spend of compute units (CU) against the plan's quota; the day resets at 00:00 UTC. */
export type QuotaStatus = NonNullable<PollStatus['quota']>;
/** A desktop notification the core decided to show (already coalesced); the shell displays it. */
export type NotificationPayload = z.output<typeof NotificationPayloadSchema>;
export type MonitorEvent = z.output<typeof MonitorEventSchema>;

// Types declared elsewhere that these schemas repeat: a drift (a field added to one only) fails the typecheck here.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(ok: Same<A, B>): Same<A, B> => ok;
same<NonNullable<NotificationPayload['severity']>, Severity>(true);
