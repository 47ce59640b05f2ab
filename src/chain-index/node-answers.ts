/**
 * A node's raw JSON-RPC answers, checked before anything is built from them: each log, block and
 * receipt is parsed with a schema whose every failure names a reason (bad hex, a negative number, a
 * missing field, too many topics, oversized data). A bad log is skipped and counted, the rest of the
 * range is read; an answer that is not what the method returns at all (a head that is not a number)
 * is the node's fault, said in plain words, never a parser's internal text.
 */
import { z } from 'zod';
import type { Log } from 'viem';
import { NodeAnswerError } from '../shared/json-rpc-fetch';
import { SKIP_REASONS, type SkipReason } from '../shared/own-nodes';
import { MAX_MESSAGE_DATA_BYTES } from '../shared/policy';
import { timeInRange } from '../shared/record-bounds';

/** The most event data one messenger log may carry (1 MiB: more than a block's gas pays for in log data; a record's payload cap). */
export const MAX_LOG_DATA_BYTES = MAX_MESSAGE_DATA_BYTES;
/** Gas a transaction used fits a uint64 (a block's gas limit does); a gas price beyond 2^128 wei is no price. */
const MAX_GAS = 2n ** 64n;
const MAX_GAS_PRICE = 2n ** 128n;

const present = { error: (iss: { input: unknown }) => (iss.input === null || iss.input === undefined ? 'missing_field' : 'bad_hex') };
const hexString = z.string(present).refine((s) => !s.startsWith('-'), 'negative_number');
const quantity = hexString.regex(/^0x[0-9a-fA-F]{1,64}$/, 'bad_hex').transform((s) => BigInt(s));
/** A block number, log index or the like: a quantity a JS number holds exactly. */
const smallQuantity = quantity.refine((v) => v <= BigInt(Number.MAX_SAFE_INTEGER), 'block_number_out_of_range').transform(Number);
const below = (max: bigint) => quantity.refine((v) => v < max, 'amount_out_of_range');
const hex32 = hexString.regex(/^0x[0-9a-fA-F]{64}$/, 'bad_hex');
const address = hexString.regex(/^0x[0-9a-fA-F]{40}$/, 'bad_hex');
const data = z
  .string(present)
  .max(2 + 2 * MAX_LOG_DATA_BYTES, 'oversized_data')
  .regex(/^0x([0-9a-fA-F]{2})*$/, 'bad_hex');

const LogSchema = z.object(
  {
    address,
    topics: z.array(hex32, present).min(1, 'wrong_topic_count').max(4, 'wrong_topic_count'),
    data,
    blockNumber: smallQuantity,
    blockHash: hex32,
    transactionHash: hex32,
    logIndex: smallQuantity,
    // Optional fields some nodes leave null: absent, not malformed.
    transactionIndex: smallQuantity.nullish(),
    // Its range is checked against the clock where it is used (blockTime).
    blockTimestamp: quantity.nullish(),
    removed: z.boolean().nullish(),
  },
  { error: () => 'missing_field' },
);

const BlockSchema = z.object({ hash: hex32, number: smallQuantity, timestamp: quantity }, { error: () => 'missing_field' });
const ReceiptSchema = z.object(
  { blockNumber: smallQuantity, gasUsed: below(MAX_GAS), effectiveGasPrice: below(MAX_GAS_PRICE), from: address },
  { error: () => 'missing_field' },
);

const reasonOf = (e: z.ZodError): SkipReason => {
  const m = e.issues[0]?.message;
  return (SKIP_REASONS as readonly string[]).includes(m ?? '') ? (m as SkipReason) : 'bad_hex';
};

/** A log as viem's decoder takes it, with the block time when the node gives it. */
export type NodeLog = Log<bigint, number, false>;

interface LogsRead {
  logs: NodeLog[];
  skipped: SkipReason[];
}

/** Checks an eth_getLogs answer: every log in [from, to] from one of the messengers is kept; the others are skipped with a reason. */
export function readLogs(raw: unknown, from: number, to: number, messengers: readonly string[]): LogsRead {
  if (!Array.isArray(raw)) throw new NodeAnswerError('malformed', 'The node answered eth_getLogs with something that is not a list of logs.');
  const out: LogsRead = { logs: [], skipped: [] };
  for (const item of raw) {
    const p = LogSchema.safeParse(item);
    if (!p.success) {
      out.skipped.push(reasonOf(p.error));
      continue;
    }
    const l = p.data;
    if (l.removed === true) continue; // a log the node itself says was reorged away
    if (l.blockNumber < from || l.blockNumber > to || !messengers.includes(l.address.toLowerCase())) {
      out.skipped.push('not_asked_for');
      continue;
    }
    out.logs.push({
      address: l.address.toLowerCase() as NodeLog['address'],
      topics: l.topics as NodeLog['topics'],
      data: l.data as NodeLog['data'],
      blockNumber: BigInt(l.blockNumber),
      blockHash: l.blockHash.toLowerCase() as NodeLog['blockHash'],
      transactionHash: l.transactionHash.toLowerCase() as NodeLog['transactionHash'],
      logIndex: l.logIndex,
      transactionIndex: l.transactionIndex ?? 0,
      removed: false,
      ...(l.blockTimestamp !== undefined && l.blockTimestamp !== null ? { blockTimestamp: l.blockTimestamp } : {}),
    });
  }
  return out;
}

interface NodeBlock {
  hash: string;
  number: number;
  /** As the node said it: blockTime() tells whether a record may carry it. */
  timestamp: bigint;
}

/** An eth_getBlockByNumber answer: the block, null when the node has none at that height, 'bad' when it is malformed. */
export function readBlock(raw: unknown): NodeBlock | null | 'bad' {
  if (raw === null) return null;
  const p = BlockSchema.safeParse(raw);
  return p.success ? p.data : 'bad';
}

/**
 * A block's time as records carry it (Unix seconds), or why it cannot be: a time in milliseconds, before
 * 2020 or more than a day past `nowMs` (a node's clock or its lie) is out of range (policy.ts).
 */
export function blockTime(timestamp: bigint, nowMs: number): number | 'timestamp_out_of_range' {
  const s = timestamp <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(timestamp) : NaN;
  return timeInRange(s, nowMs) ? s : 'timestamp_out_of_range';
}

interface NodeReceipt {
  blockNumber: number;
  gasUsed: bigint;
  effectiveGasPrice: bigint;
  from: string;
}

/**
 * An eth_getTransactionReceipt answer: null when the node has none; when it cannot be used, why: its
 * gas out of range, else malformed (`bad_block`: the logs that need it are skipped).
 */
export function readReceipt(raw: unknown): NodeReceipt | null | 'bad_block' | 'amount_out_of_range' {
  if (raw === null) return null;
  const p = ReceiptSchema.safeParse(raw);
  if (p.success) return p.data;
  return reasonOf(p.error) === 'amount_out_of_range' ? 'amount_out_of_range' : 'bad_block';
}

/** A quantity the node must answer (eth_chainId; eth_blockNumber, which must fit a JS number): else the node is at fault. */
export function readQuantity(raw: unknown, method: 'eth_chainId'): bigint;
export function readQuantity(raw: unknown, method: 'eth_blockNumber'): number;
export function readQuantity(raw: unknown, method: 'eth_chainId' | 'eth_blockNumber'): bigint | number {
  const p = (method === 'eth_chainId' ? quantity : smallQuantity).safeParse(raw);
  if (p.success) return p.data;
  throw new NodeAnswerError('malformed', `The node answered ${method} with something that is not a number: it is not read until it does.`);
}
