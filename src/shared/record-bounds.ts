/**
 * The boundary every Data API record crosses before anything uses it (the core's client, for the
 * Data API, a custom URL and the local service alike): each known field that is present must have its
 * type and lie in its range (policy.ts), every text is capped, the record as a whole too. A record
 * that does not is skipped with a named reason and never stored; one that merely lacks fields or has
 * a status we do not know passes, and is kept whole as `unknown` (messages.ts).
 */
import { z } from 'zod';
import { EARLIEST_RECORD_TIME_S, FUTURE_TIME_TOLERANCE_S, MAX_MESSAGE_DATA_BYTES, MAX_RECORD_CHARS, MAX_RECORD_FIELD_CHARS } from './policy';

/** Why a record was skipped: a bounded set (a Prometheus label, a word in the status bar). */
export const RECORD_SKIP_REASONS = [
  /** Not an object, no usable messageId, a known field of the wrong type or shape, or nested too deep. */
  'malformed',
  /** A transaction time that is not whole seconds between 2020-01-01 and a day past now (e.g. milliseconds). */
  'timestamp_out_of_range',
  /** A nonce or the token's decimals that is not a whole number in its range. */
  'number_out_of_range',
  /** Gas spent, the fee or its price that is not a whole decimal number within uint256 (a price: a finite number ≥ 0). */
  'amount_out_of_range',
  /** A text over its cap (2,048 characters; the payload over 1 MiB). */
  'field_too_long',
  /** The record as JSON over 2.5 MiB. */
  'record_too_large',
] as const;
export type RecordSkipReason = (typeof RECORD_SKIP_REASONS)[number];

/** One skipped record: why, which field (a path of known or plain names), and its ID when it had a well-formed one. */
export const RecordSkipSchema = z.object({
  reason: z.enum(RECORD_SKIP_REASONS),
  field: z.string().max(200),
  messageId: z.string().nullable(),
});
export type RecordSkip = z.output<typeof RecordSkipSchema>;

/** What the poll status says of the records skipped from the current data source since the core started. */
export const SkippedRecordsSchema = z.object({
  total: z.number().int().nonnegative(),
  byReason: z.partialRecord(z.enum(RECORD_SKIP_REASONS), z.number().int().nonnegative()),
  /** When the first and the latest were skipped (ms). */
  since: z.number(),
  lastAt: z.number(),
  /** The latest one. */
  last: RecordSkipSchema,
});
export type SkippedRecords = z.output<typeof SkippedRecordsSchema>;

/** Words for a reason, as the status bar and the log say it. */
export const skipReasonText = (r: RecordSkipReason): string => r.replaceAll('_', ' ');

/** Is `sec` a transaction time a record may carry now: whole seconds from 2020-01-01 to a day past `nowMs`? */
export function timeInRange(sec: number, nowMs: number): boolean {
  return Number.isSafeInteger(sec) && sec >= EARLIEST_RECORD_TIME_S && sec <= Math.floor(nowMs / 1000) + FUTURE_TIME_TOLERANCE_S;
}

const UINT256_MAX = 2n ** 256n - 1n;
const MAX_DEPTH = 16;
const UINT = /^[0-9]{1,78}$/;

const malformed = { error: 'malformed' } as const;
const text = (max = MAX_RECORD_FIELD_CHARS) => z.string(malformed).max(max, 'field_too_long');
/** A hex field: empty (not known) or 0x and `digits` hex digits (a range like "1,64" allowed). */
const hex = (digits: string) => text().regex(new RegExp(`^(0x[0-9a-fA-F]{${digits}})?$`), 'malformed');
const address = hex('40');
/** A transaction hash: hex of at most 32 bytes (only shown and searched: a short one harms nothing). */
const txHash = hex('1,64');
// One check: a refinement runs even after a failed regex, and BigInt() throws on what is not decimal.
const decimal = (reason: RecordSkipReason) => text().refine((s) => UINT.test(s) && BigInt(s) <= UINT256_MAX, reason);
// A time's range against now is checked after the schema (timeInRange): the schema has no clock.
const time = z.number(malformed).refine((n) => Number.isSafeInteger(n) && n >= EARLIEST_RECORD_TIME_S, 'timestamp_out_of_range');
const price = z.union([z.number(), z.string().max(100)], malformed).refine((v) => {
  const n = typeof v === 'number' ? v : v.trim() === '' ? NaN : Number(v);
  return Number.isFinite(n) && n >= 0;
}, 'amount_out_of_range');
const flag = z.boolean(malformed);
/** A field that may be absent (or null: not known), and must be right when present. */
const opt = <T extends z.ZodType>(t: T) => t.nullish();

const TransactionBounds = z.looseObject(
  {
    txHash: opt(txHash),
    timestamp: opt(time),
    gasSpent: opt(decimal('amount_out_of_range')),
    rewardRedeemer: opt(address),
    delivererAddress: opt(address),
  },
  malformed,
);

/** The known fields, each checked when present; required of every record: a well-formed messageId. */
const RecordBounds = z.looseObject(
  {
    messageId: text().regex(/^(0x)?[0-9a-fA-F]{64}$/, 'malformed'),
    status: opt(text(64)),
    teleporterContractAddress: opt(address),
    icmContractAddress: opt(address),
    sourceBlockchainId: opt(text(100)),
    destinationBlockchainId: opt(text(100)),
    sourceEvmChainId: opt(text(100)),
    destinationEvmChainId: opt(text(100)),
    messageNonce: opt(decimal('number_out_of_range')),
    from: opt(address),
    to: opt(address),
    data: opt(text(2 + 2 * MAX_MESSAGE_DATA_BYTES).regex(/^(0x([0-9a-fA-F]{2})*)?$/, 'malformed')),
    messageExecuted: opt(flag),
    receiptDelivered: opt(flag),
    receipts: opt(
      z.array(z.looseObject({ receivedMessageNonce: opt(decimal('number_out_of_range')), relayerRewardAddress: opt(address) }, malformed), malformed),
    ),
    rewardDetails: opt(
      z.looseObject(
        {
          address: opt(address),
          decimals: opt(z.number(malformed).refine((n) => Number.isInteger(n) && n >= 0 && n <= 255, 'number_out_of_range')),
          price: opt(z.looseObject({ currencyCode: opt(text(16)), value: opt(price) }, malformed)),
          value: opt(decimal('amount_out_of_range')),
        },
        malformed,
      ),
    ),
    sourceTransaction: opt(TransactionBounds),
    destinationTransaction: opt(TransactionBounds),
  },
  malformed,
);

/** A path as the log and the status bar may show it: plain names and indices only (keys come from the sender). */
const pathText = (path: readonly PropertyKey[]): string =>
  path.map((k) => (typeof k === 'number' ? String(k) : typeof k === 'string' && /^[A-Za-z0-9_]{1,40}$/.test(k) ? k : '?')).join('.') || 'record';

/** The cap of a text at `depth` under the key `key`: the payload (top-level `data`) has its own. */
const capOf = (depth: number, key: PropertyKey | undefined): number =>
  depth === 1 && key === 'data' ? 2 + 2 * MAX_MESSAGE_DATA_BYTES : MAX_RECORD_FIELD_CHARS;

/**
 * Every text of the record within its cap, the record within its size and depth, walked without
 * recursion (a deeply nested record cannot exhaust the stack) and without keeping paths: every page's
 * every record passes here. Only a record that fails is walked again, to name the field (fieldOf).
 */
function sizeProblem(rec: Record<string, unknown>): { reason: RecordSkipReason; field: string } | null {
  let chars = 0;
  const values: unknown[] = [rec];
  const depths: number[] = [0];
  const keys: (string | undefined)[] = [undefined];
  while (values.length) {
    const v = values.pop();
    const depth = depths.pop()!;
    const key = keys.pop();
    if (typeof v === 'string') {
      chars += v.length + 2;
      if (v.length > capOf(depth, key)) return { reason: 'field_too_long', field: fieldOf(rec, (x, d, k) => typeof x === 'string' && x.length > capOf(d, k)) };
    } else if (typeof v === 'object' && v !== null) {
      if (depth >= MAX_DEPTH) return { reason: 'malformed', field: fieldOf(rec, (x, d) => typeof x === 'object' && x !== null && d >= MAX_DEPTH) };
      for (const k in v) {
        if (k.length > MAX_RECORD_FIELD_CHARS)
          return {
            reason: 'field_too_long',
            field: fieldOf(rec, (x) => typeof x === 'object' && x !== null && Object.keys(x).some((n) => n.length > MAX_RECORD_FIELD_CHARS)),
          };
        chars += k.length + 4;
        values.push((v as Record<string, unknown>)[k]);
        depths.push(depth + 1);
        keys.push(k);
      }
    } else chars += 8;
    if (chars > MAX_RECORD_CHARS) return { reason: 'record_too_large', field: 'record' };
  }
  return null;
}

/** The path of the first value in `rec` that `is` (the same walk, with paths: only for a record that failed). */
function fieldOf(rec: Record<string, unknown>, is: (v: unknown, depth: number, key: PropertyKey | undefined) => boolean): string {
  const stack: { v: unknown; path: PropertyKey[] }[] = [{ v: rec, path: [] }];
  while (stack.length) {
    const { v, path } = stack.pop()!;
    if (is(v, path.length, path.at(-1))) return pathText(path);
    if (typeof v === 'object' && v !== null && path.length < MAX_DEPTH)
      for (const [k, x] of Object.entries(v)) stack.push({ v: x, path: [...path, Array.isArray(v) ? Number(k) : k] });
  }
  return 'record';
}

const reasonOf = (m: string | undefined): RecordSkipReason =>
  (RECORD_SKIP_REASONS as readonly string[]).includes(m ?? '') ? (m as RecordSkipReason) : 'malformed';

/** Why this record must be skipped, or null when it may be used. `nowMs`: this machine's clock (a time may be a day ahead of it at most). */
export function recordSkip(raw: unknown, nowMs: number): RecordSkip | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { reason: 'malformed', field: 'record', messageId: null };
  const rec = raw as Record<string, unknown>;
  const id = typeof rec.messageId === 'string' && /^(0x)?[0-9a-fA-F]{64}$/.test(rec.messageId) ? rec.messageId : null;
  const size = sizeProblem(rec);
  if (size) return { ...size, messageId: id };
  const p = RecordBounds.safeParse(rec);
  if (!p.success) {
    const issue = p.error.issues[0];
    return { reason: reasonOf(issue?.message), field: pathText(issue?.path ?? []), messageId: id };
  }
  for (const side of ['sourceTransaction', 'destinationTransaction'] as const) {
    const ts = p.data[side]?.timestamp;
    if (typeof ts === 'number' && !timeInRange(ts, nowMs)) return { reason: 'timestamp_out_of_range', field: `${side}.timestamp`, messageId: id };
  }
  return null;
}
