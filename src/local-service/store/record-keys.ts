/**
 * What the store needs from a record to index it, validated with zod. Everything else in the record
 * is kept as raw JSON, untouched, so unknown fields and unknown statuses survive.
 */
import { z } from 'zod';
import { POS_PER_SECOND } from './schema';

/**
 * The latest second a sort position (seconds × POS_PER_SECOND + a counter) can hold and still be read
 * back as a JavaScript number: a later time (a millisecond timestamp) sorts as undated, never corrupting reads.
 */
const LAST_SORTABLE_S = Math.floor(Number.MAX_SAFE_INTEGER / POS_PER_SECOND) - 1;

const Tx = z.looseObject({ timestamp: z.number().optional() }).optional();

const StorableRecordSchema = z.looseObject({
  messageId: z.string().min(1, 'messageId is required'),
  sourceBlockchainId: z.string().default(''),
  destinationBlockchainId: z.string().default(''),
  sourceEvmChainId: z.string().default(''),
  destinationEvmChainId: z.string().default(''),
  from: z.string().default(''),
  to: z.string().default(''),
  status: z.string().default(''),
  sourceTransaction: Tx,
  destinationTransaction: Tx,
});

interface RecordKeys {
  messageId: string;
  source: { blockchainId: string; evmChainId: string };
  destination: { blockchainId: string; evmChainId: string };
  from: string;
  to: string;
  status: string;
  /** Source timestamp, else destination timestamp, else 0 (Unix seconds; 0 too for one no sort position can hold). */
  timestamp: number;
}

export function recordKeys(record: unknown): RecordKeys {
  const r = StorableRecordSchema.safeParse(record);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Error(`Cannot store record: ${issue ? `${issue.path.join('.') || 'record'}: ${issue.message}` : 'invalid'}.`);
  }
  const d = r.data;
  const ts = d.sourceTransaction?.timestamp ?? d.destinationTransaction?.timestamp ?? 0;
  return {
    messageId: d.messageId,
    source: { blockchainId: d.sourceBlockchainId, evmChainId: d.sourceEvmChainId },
    destination: { blockchainId: d.destinationBlockchainId, evmChainId: d.destinationEvmChainId },
    from: d.from.toLowerCase(),
    to: d.to.toLowerCase(),
    status: d.status,
    timestamp: Number.isFinite(ts) && ts > 0 && ts <= LAST_SORTABLE_S ? Math.floor(ts) : 0,
  };
}
