/**
 * "Your own nodes": the chains whose TeleporterMessenger logs the local service reads over JSON-RPC
 * instead of the Data API. One schema for Settings, the headless YAML config and the service's
 * `--own-nodes` file.
 */
import { z } from 'zod';
import { parseBlockchainId, parseEvmAddress } from './validators';
import type { Parsed } from './result';

/** As schemas.ts has it (not imported from there: schemas.ts imports this file for the data source). */
const MAX_URL_CHARS = 2048;

const checked = <T>(parse: (s: unknown) => Parsed<T>) =>
  z.string().transform((s, ctx) => {
    const r = parse(s);
    if (!r.ok) {
      ctx.addIssue({ code: 'custom', message: r.error });
      return z.NEVER;
    }
    return r.value;
  });
const blockchainId = checked((s) => parseBlockchainId(s));
const evmAddress = checked((s) => parseEvmAddress(s, 'Messenger address'));

/** The TeleporterMessenger's address on every chain it is deployed to (one deployer, one nonce). */
export const TELEPORTER_MESSENGER_ADDRESS = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf';

export const OWN_NODE_CHAINS_MAX = 20;
const CONFIRMATIONS_MAX = 1000;

const url = (what: string, schemes: readonly string[]) =>
  z
    .string({ error: `${what} is required.` })
    .max(MAX_URL_CHARS, `${what} must be at most ${MAX_URL_CHARS} characters.`)
    .refine(
      (u) => URL.canParse(u) && schemes.includes(new URL(u).protocol),
      `${what} must be a full ${schemes.map((s) => s.replace(':', '://')).join(' or ')} URL.`,
    );

const OwnNodeChainSchema = z
  .object({
    /** What the chain is called in the poll status bar (default: the registry's name, else a short ID). */
    name: z.string().trim().max(60, 'Name must be at most 60 characters.').optional(),
    /** The node's EVM JSON-RPC endpoint. */
    rpcUrl: url('RPC URL', ['http:', 'https:']),
    /** Its WebSocket endpoint: new blocks are then read as they come (polling stays as a fallback). */
    wsUrl: url('WebSocket URL', ['ws:', 'wss:']).optional(),
    /** The chain's Avalanche blockchain ID (cb58), as the messenger knows it. */
    blockchainId,
    /** The EVM chain ID the node must report (checked on every connect and every 10 poll intervals); learned from the node when saved. */
    evmChainId: z
      .string()
      .regex(/^[1-9][0-9]{0,77}$/, 'EVM chain ID must be a positive whole number in decimal, like 43114.')
      .optional(),
    /** The network the chain's messages are listed under (default: the registry's, else mainnet). */
    network: z.enum(['mainnet', 'fuji']).optional(),
    /** TeleporterMessenger addresses (several after an upgrade); default the registry's one address. */
    messengers: z.array(evmAddress).min(1, 'List at least one messenger address, or leave the list out for the default.').max(8).optional(),
    /** First block to read (default 0: the whole history, which needs an archive node or a young chain). */
    startBlock: z.number().int().min(0).optional(),
  })
  .strict();

export const OwnNodesSchema = z
  .object({
    chains: z
      .array(OwnNodeChainSchema)
      .min(1, 'Add at least one chain.')
      .max(OWN_NODE_CHAINS_MAX, `At most ${OWN_NODE_CHAINS_MAX} chains.`)
      .refine((cs) => new Set(cs.map((c) => c.blockchainId)).size === cs.length, 'Each blockchain ID may be listed once.'),
    /** Blocks a log must be under before it is read (reorg safety). */
    confirmations: z.number().int().min(0).max(CONFIRMATIONS_MAX, `Confirmations must be at most ${CONFIRMATIONS_MAX}.`).default(1),
    /** How often each node is asked for new blocks (milliseconds). */
    pollIntervalMs: z.number().int().min(100).max(600_000).default(2_000),
    /** A request the node has not answered in this long counts as slow (milliseconds). */
    requestTimeoutMs: z.number().int().min(100).max(120_000).default(15_000),
  })
  .strict();

export type OwnNodeChain = z.output<typeof OwnNodeChainSchema>;
export type OwnNodes = z.output<typeof OwnNodesSchema>;
export type OwnNodesInput = z.input<typeof OwnNodesSchema>;

/**
 * What a node is doing right now, as the poll status bar and /metrics show it. `internal_error`: reading
 * the chain failed in Teleporter Watch's own code, not for anything the node did (never blamed on it).
 */
export const CHAIN_STATES = ['starting', 'ok', 'down', 'slow', 'pruned', 'rate_limited', 'wrong_chain', 'internal_error'] as const;
export type ChainState = (typeof CHAIN_STATES)[number];

/**
 * Why a log, block or receipt a node sent was skipped (the chain reads on): a counter per reason in
 * each chain's status and in /metrics.
 */
export const SKIP_REASONS = [
  /** A field that must be hex is not (or has odd digits, or is too long). */
  'bad_hex',
  /** A number given as negative ("-0x5"). */
  'negative_number',
  /** A field that must be there is null or missing. */
  'missing_field',
  /** A messenger event with the wrong number of topics. */
  'wrong_topic_count',
  /** Event data larger than any message the messenger can emit in a block. */
  'oversized_data',
  /** A messenger event whose data does not decode as that event. */
  'undecodable',
  /** A log outside the asked block range, or from another contract than the messengers. */
  'not_asked_for',
  /** The block or transaction receipt a log needs is malformed. */
  'bad_block',
  /** A block time that is not Unix seconds from 2020-01-01 to a day past now (a far-future block, milliseconds): its logs are skipped. */
  'timestamp_out_of_range',
  /** A block number or log index past 2^53. */
  'block_number_out_of_range',
  /** Gas used past 2^64 or a gas price past 2^128 wei in the receipt a log needs. */
  'amount_out_of_range',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export const OwnNodeStatusSchema = z.object({
  blockchainId: z.string(),
  /** The chain's configured name, else the registry's, else a short ID (the `chain` label in /metrics). */
  name: z.string(),
  /** The RPC URL's host (never its path or query, which may hold a provider key). */
  host: z.string(),
  state: z.enum(CHAIN_STATES),
  /** What went wrong, in words a person can act on (empty when ok). */
  message: z.string(),
  evmChainId: z.string().nullable(),
  head: z.number().int().nullable(),
  /** Every block up to here has been read. */
  indexedTo: z.number().int().nullable(),
  /** Current eth_getLogs span (blocks per request), after adapting to the node's limits. */
  span: z.number().int().nonnegative(),
  rpcCalls: z.number().int().nonnegative(),
  reorgs: z.number().int().nonnegative(),
  lastScanAt: z.number().nullable(),
  /** Logs, blocks and receipts skipped (malformed or out of range) since the service started, by reason. */
  skipped: z.partialRecord(z.enum(SKIP_REASONS), z.number().int().nonnegative()),
});
export type OwnNodeStatus = z.output<typeof OwnNodeStatusSchema>;
