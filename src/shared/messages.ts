import { z } from 'zod';

/**
 * The teleporter message record as the Data API returns it: three known variants discriminated by
 * `status`, plus an `unknown` form for any status we have not met. Extra fields are always kept.
 * Both path families are read: `/v1/teleporter` records name the contract `teleporterContractAddress`,
 * `/v1/icm` records `icmContractAddress` (teleporter lists send the latter on source-not-indexed
 * records too); a record needs one of them.
 */
export const ReceiptSchema = z.looseObject({
  receivedMessageNonce: z.string(),
  relayerRewardAddress: z.string(),
});

/**
 * An amount in a token's smallest unit or wei, as a whole decimal number: what BigInt() reads. A record
 * stored before the boundary checks (record-bounds.ts) with anything else reads as `unknown`, never as
 * a known variant whose figures would fail to add up.
 */
const amount = z.string().regex(/^[0-9]{1,78}$/);

const RewardDetailsSchema = z.looseObject({
  address: z.string(),
  name: z.string(),
  symbol: z.string(),
  decimals: z.number().int().min(0).max(255),
  logoUri: z.string().optional(),
  ercType: z.string(),
  price: z.looseObject({ currencyCode: z.string(), value: z.union([z.string(), z.number()]) }).optional(),
  value: amount,
});

const SourceTransactionSchema = z.looseObject({
  txHash: z.string(),
  timestamp: z.number(),
  gasSpent: amount,
});

const DestinationTransactionSchema = z.looseObject({
  txHash: z.string(),
  timestamp: z.number(),
  gasSpent: amount,
  rewardRedeemer: z.string(),
  delivererAddress: z.string(),
});

const common = {
  messageId: z.string().min(1),
  teleporterContractAddress: z.string().optional(),
  icmContractAddress: z.string().optional(),
  sourceBlockchainId: z.string(),
  destinationBlockchainId: z.string(),
  // The public spec types EVM chain IDs only as strings: an empty or odd one is kept as sent (the
  // record keeps its variant; a chain is shown by its blockchain ID first, chains.ts / message-view.ts).
  sourceEvmChainId: z.string(),
  destinationEvmChainId: z.string(),
  messageNonce: z.string(),
  from: z.string(),
  to: z.string(),
  data: z.string().optional(),
  messageExecuted: z.boolean(),
  receipts: z.array(ReceiptSchema),
  receiptDelivered: z.boolean(),
  rewardDetails: RewardDetailsSchema,
};

const hasContract = (r: { teleporterContractAddress?: string | undefined; icmContractAddress?: string | undefined }) =>
  r.teleporterContractAddress !== undefined || r.icmContractAddress !== undefined;
const NO_CONTRACT = { message: 'teleporterContractAddress or icmContractAddress is required', path: ['icmContractAddress'] };

const PendingMessageSchema = z
  .looseObject({
    ...common,
    status: z.literal('pending'),
    sourceTransaction: SourceTransactionSchema,
  })
  .refine(hasContract, NO_CONTRACT);

const DeliveredMessageSchema = z
  .looseObject({
    ...common,
    status: z.literal('delivered'),
    sourceTransaction: SourceTransactionSchema,
    destinationTransaction: DestinationTransactionSchema,
  })
  .refine(hasContract, NO_CONTRACT);

const DeliveredSourceNotIndexedMessageSchema = z
  .looseObject({
    ...common,
    status: z.literal('delivered_source_not_indexed'),
    destinationTransaction: DestinationTransactionSchema,
  })
  .refine(hasContract, NO_CONTRACT);

export type Receipt = z.infer<typeof ReceiptSchema>;
type PendingMessage = z.infer<typeof PendingMessageSchema>;
type DeliveredMessage = z.infer<typeof DeliveredMessageSchema>;
type DeliveredSourceNotIndexedMessage = z.infer<typeof DeliveredSourceNotIndexedMessageSchema>;

/** A record whose status we do not know, or whose known variant did not validate: kept whole. */
const UnknownStatusMessageSchema = z.object({
  status: z.literal('unknown'),
  messageId: z.string().min(1),
  /** The status string the API sent (may be a known one when the record failed its variant's schema). */
  reportedStatus: z.string(),
  /** Why it is not one of the known variants. */
  problem: z.string(),
  raw: z.record(z.string(), z.unknown()),
});

type KnownMessage = PendingMessage | DeliveredMessage | DeliveredSourceNotIndexedMessage;

/** A message as the contract carries it: one of the known variants, or the `unknown` form that keeps the record whole. */
export const TeleporterMessageSchema = z.union([
  PendingMessageSchema,
  DeliveredMessageSchema,
  DeliveredSourceNotIndexedMessageSchema,
  UnknownStatusMessageSchema,
]);
export type TeleporterMessage = z.output<typeof TeleporterMessageSchema>;

const variantSchemas = {
  pending: PendingMessageSchema,
  delivered: DeliveredMessageSchema,
  delivered_source_not_indexed: DeliveredSourceNotIndexedMessageSchema,
} as const;

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || 'record'}: ${i.message}`)
    .join('; ');
}

/**
 * Parses one record. Returns null only when the record has no usable messageId (it cannot be tracked);
 * everything else becomes a known variant or an `unknown` record that keeps the raw JSON.
 */
export function parseMessage(raw: unknown): TeleporterMessage | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const rec = raw as Record<string, unknown>;
  const messageId = rec.messageId;
  if (typeof messageId !== 'string' || messageId === '') return null;
  const status = typeof rec.status === 'string' ? rec.status : '';
  const schema = (variantSchemas as Record<string, z.ZodType<KnownMessage>>)[status];
  if (!schema) {
    return { status: 'unknown', messageId, reportedStatus: status, problem: `unknown status "${status}"`, raw: rec };
  }
  const parsed = schema.safeParse(rec);
  if (parsed.success) return parsed.data;
  return { status: 'unknown', messageId, reportedStatus: status, problem: describeIssues(parsed.error), raw: rec };
}

/** The raw record (what the API sent) for any variant. */
export const rawRecord = (m: TeleporterMessage): Record<string, unknown> => (m.status === 'unknown' ? m.raw : m);

/** The messenger contract, under either family's name. */
export function contractAddress(m: TeleporterMessage): string | undefined {
  const r = rawRecord(m);
  const a = r.icmContractAddress ?? r.teleporterContractAddress;
  return typeof a === 'string' ? a : undefined;
}

/** Effective status string for display and transitions: the API's own value, known or not. */
export const effectiveStatus = (m: TeleporterMessage): string => (m.status === 'unknown' ? m.reportedStatus : m.status);

/** The times (s since epoch) of the message's source and destination transactions, null where it has none. */
export function transactionTimes(m: TeleporterMessage): { sourceTs: number | null; destinationTs: number | null } {
  const r = rawRecord(m) as { sourceTransaction?: { timestamp?: unknown }; destinationTransaction?: { timestamp?: unknown } };
  const time = (t: unknown) => (typeof t === 'number' ? t : null);
  return { sourceTs: time(r.sourceTransaction?.timestamp), destinationTs: time(r.destinationTransaction?.timestamp) };
}

/** Seconds since epoch of the message's first known transaction. */
export function messageTimestamp(m: TeleporterMessage): number | undefined {
  const { sourceTs, destinationTs } = transactionTimes(m);
  return sourceTs ?? destinationTs ?? undefined;
}

/**
 * Seconds since epoch of the message's latest known transaction: its delivery's once delivered, else its
 * sending's. What retention goes by for a settled message (store/pruning.ts, watch/engine.ts).
 */
export function latestTimestamp(m: TeleporterMessage): number | undefined {
  const { sourceTs, destinationTs } = transactionTimes(m);
  return sourceTs === null ? (destinationTs ?? undefined) : Math.max(sourceTs, destinationTs ?? sourceTs);
}

/** The error body of a non-2xx response. */
export const ApiErrorBodySchema = z.looseObject({
  message: z.union([z.string(), z.array(z.string())]),
  statusCode: z.number().optional(),
  error: z.string().optional(),
});
