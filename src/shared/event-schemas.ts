/**
 * Zod schemas of every contract event (MonitorEvent), so a receiver can check what crossed a boundary
 * (Electron IPC, the web host's socket) before acting on it. The types stay declared in contract.ts;
 * the compile-time checks at the end fail when a type and its schema drift apart.
 */
import { CHAIN_STATES, SKIP_REASONS } from './own-nodes';
import { z } from 'zod';
import type { ApiKeyStatus, MonitorEvent, NotificationPayload, PollStatus } from './contract';
import { ERROR_KINDS, type ErrorInfo } from './errors';
import { SettingsSchema } from './schemas';
import { TransitionsEventSchema } from './transitions';

const epochMs = z.number();

export const ErrorInfoSchema = z.object({
  kind: z.enum(ERROR_KINDS),
  message: z.string(),
  field: z.string().optional(),
  retryAt: z.number().optional(),
  status: z.number().optional(),
});

const nullableInt = z.number().int().nullable();
const OwnNodeStatusSchema = z.object({
  blockchainId: z.string(),
  name: z.string(),
  host: z.string(),
  state: z.enum(CHAIN_STATES),
  message: z.string(),
  evmChainId: z.string().nullable(),
  head: nullableInt,
  indexedTo: nullableInt,
  span: z.number().int().nonnegative(),
  rpcCalls: z.number().int().nonnegative(),
  reorgs: z.number().int().nonnegative(),
  lastScanAt: epochMs.nullable(),
  skipped: z.partialRecord(z.enum(SKIP_REASONS), z.number().int().nonnegative()),
});

export const PollStatusSchema = z.object({
  state: z.enum(['idle', 'polling', 'rate_limited', 'offline', 'error', 'stopped']),
  lastSuccessAt: epochMs.nullable(),
  lastAttemptAt: epochMs.nullable(),
  nextRunAt: epochMs.nullable(),
  rateLimitedUntil: epochMs.nullable(),
  lastError: ErrorInfoSchema.nullable(),
  requestsLastMinute: z.number().nonnegative(),
  budgetPerMinute: z.number().nonnegative(),
  quota: z
    .object({
      plan: z.string(),
      cuPerMinute: z.number().nonnegative(),
      cuPerDay: z.number().nonnegative(),
      spentCuToday: z.number().nonnegative(),
      requestsToday: z.number().int().nonnegative(),
      cuLastMinute: z.number().nonnegative(),
      paceCuPerMinute: z.number().nonnegative(),
      projectedCuToday: z.number().nonnegative(),
      runsOutAt: epochMs.nullable(),
      resetsAt: epochMs,
      level: z.enum(['ok', 'warning', 'exhausted']),
    })
    .optional(),
  behindMs: z.number().nonnegative().nullable().optional(),
  tracked: z.number().int().nonnegative(),
  watching: z.number().int().nonnegative(),
  ownNodes: z.array(OwnNodeStatusSchema).optional(),
  lateRecords: z
    .object({
      maxLateSec: z.number().nonnegative(),
      limitSec: z.number().positive(),
      stall: z.object({ stalledSec: z.number().nonnegative(), sweptToMs: epochMs, limited: z.boolean() }).optional(),
    })
    .optional(),
});

export const NotificationPayloadSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  body: z.string(),
  severity: z.enum(['warning', 'success', 'info']).optional(),
  messageId: z.string().min(1).optional(),
  transitionIds: z.array(z.number().int()),
});

export const ApiKeyStatusSchema = z.object({
  hasApiKey: z.boolean(),
  storage: z.enum(['keychain', 'memory', 'none']),
  keychainError: z.string().optional(),
});

/** Every event the core (or a shell on its behalf) sends to the UI, told apart by `type`. */
export const MonitorEventSchema = z.discriminatedUnion('type', [
  TransitionsEventSchema,
  z.object({ type: z.literal('notification'), notification: NotificationPayloadSchema }),
  z.object({ type: z.literal('poll-status'), status: PollStatusSchema }),
  z.object({ type: z.literal('watchlist-changed') }),
  z.object({ type: z.literal('settings-changed'), settings: SettingsSchema }),
  z.object({ type: z.literal('api-key-changed'), status: ApiKeyStatusSchema }),
  z.object({ type: z.literal('focus-message'), messageId: z.string().min(1) }),
  z.object({ type: z.literal('relayer-economics-changed') }),
]);

/** An event checked against the contract, or why it was refused (the first issue, with its path). */
export function parseMonitorEvent(raw: unknown): { ok: true; event: MonitorEvent } | { ok: false; reason: string } {
  const r = MonitorEventSchema.safeParse(raw);
  if (r.success) return { ok: true, event: r.data };
  const issue = r.error.issues[0];
  const at = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  return { ok: false, reason: `${issue?.message ?? 'invalid event'}${at}` };
}

// A schema that drifts from its declared type (a field added to one only) fails the typecheck here.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(ok: Same<A, B>): Same<A, B> => ok;
same<z.output<typeof ErrorInfoSchema>, ErrorInfo>(true);
same<z.output<typeof PollStatusSchema>, PollStatus>(true);
same<z.output<typeof NotificationPayloadSchema>, NotificationPayload>(true);
same<z.output<typeof ApiKeyStatusSchema>, ApiKeyStatus>(true);
same<z.output<typeof MonitorEventSchema>, MonitorEvent>(true);
