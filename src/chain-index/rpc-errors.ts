/**
 * What a node's failure means, from viem's errors: a refused log range (read a smaller one), or a
 * state the status bar shows (down, slow, pruned history, rate limited). Only what went wrong in a call
 * to the node, or in what it answered, is the node's: the scanner wraps each call (NodeCallError) and
 * names the node's inconsistencies (NodeFault); anything else thrown while reading a chain is ours.
 */
import { NodeAnswerError } from '../shared/json-rpc-fetch';
import type { ChainState } from '../shared/own-nodes';

export type RpcFault = { kind: 'range' | Exclude<ChainState, 'ok' | 'starting' | 'wrong_chain' | 'internal_error'>; message: string };

/** A JSON-RPC call to the node failed (the node, the network, or the node's answer): `cause` says how. */
export class NodeCallError extends Error {
  override readonly name = 'NodeCallError';
  constructor(
    readonly method: string,
    override readonly cause: unknown,
  ) {
    super(`${method} failed`);
  }
}

/** The node's answers contradict each other (a log of a transaction without a receipt, a head past a missing block). */
export class NodeFault extends Error {
  override readonly name = 'NodeFault';
}

/** Was this thrown by the node (a call, an answer, its inconsistency), rather than by our own code? */
export const isNodeError = (e: unknown): boolean => e instanceof NodeCallError || e instanceof NodeAnswerError || e instanceof NodeFault;

interface Described {
  text: string;
  status?: number;
  timeout: boolean;
  /** The node's own answer that was not used (oversized, not JSON-RPC, another request's id). */
  answer?: NodeAnswerError;
  /** A JSON-RPC error the node sent (its words may be shown). */
  rpcError: boolean;
  /** A fault of ours or of a parser (TypeError, SyntaxError…): its text is never shown. */
  internal: boolean;
}

/** Every message and status along the error's cause chain, in one lower-case text. */
function describe(e: unknown): Described {
  const parts: string[] = [];
  const d: Described = { text: '', timeout: false, rpcError: false, internal: false };
  let cur: unknown = e;
  for (let depth = 0; cur && depth < 8; depth++) {
    const x = cur as { name?: string; message?: string; details?: string; shortMessage?: string; status?: number; code?: number | string; cause?: unknown };
    parts.push(x.shortMessage ?? '', x.details ?? '', x.message ?? '', String(x.code ?? ''));
    if (typeof x.status === 'number') d.status ??= x.status;
    if (x.name === 'TimeoutError' || x.code === 'UND_ERR_HEADERS_TIMEOUT' || x.code === 'ETIMEDOUT') d.timeout = true;
    if (cur instanceof NodeAnswerError) d.answer ??= cur;
    if (x.name === 'RpcRequestError' || (typeof x.code === 'number' && x.name?.endsWith('RpcError'))) d.rpcError = true;
    if (cur instanceof TypeError || cur instanceof SyntaxError || cur instanceof RangeError) d.internal = true;
    cur = x.cause;
  }
  d.text = parts.join(' | ').toLowerCase();
  return d;
}

const RANGE =
  /block range|range (is )?too (large|wide|big)|too many (blocks|results|logs)|query returned more than|max(imum)? (block )?range|exceed(s|ed)? .*(range|results|logs)|response size|limited to \d+/;
const RATE = /rate.?limit|too many requests|request limit|capacity exceeded|throttl/;
const PRUNED = /pruned|missing trie node|header not found|historical|not available for|archive|beyond (the )?history|unknown block/;
const DOWN = /fetch failed|econnrefused|econnreset|socket|network|enotfound|ehostunreach|closed|503|502/;

export function classifyRpcError(error: unknown): RpcFault {
  const e = error instanceof NodeCallError ? error.cause : error;
  if (e instanceof NodeFault) return { kind: 'down', message: e.message };
  const d = describe(e);
  if (d.answer) return { kind: d.answer.problem === 'oversized' ? 'range' : 'down', message: d.answer.message };
  const first = (d.text.split(' | ').find((s) => s.trim() !== '') ?? 'unknown error').slice(0, 200);
  if (d.status === 429 || RATE.test(d.text)) return { kind: 'rate_limited', message: `The node is rate limiting requests (${first}).` };
  if (RANGE.test(d.text)) return { kind: 'range', message: `The node refused the log range (${first}).` };
  if (PRUNED.test(d.text))
    return { kind: 'pruned', message: `The node no longer has these blocks (pruned history: use an archive node or a later start block) (${first}).` };
  if (d.timeout) return { kind: 'slow', message: 'The node did not answer in time.' };
  if (d.status !== undefined && d.status >= 500) return { kind: 'down', message: `The node answered HTTP ${d.status}.` };
  if (DOWN.test(d.text)) return { kind: 'down', message: `The node cannot be reached (${first}).` };
  if (d.internal && !d.rpcError) return { kind: 'down', message: "The node's answer could not be read: it is not the JSON-RPC a node sends." };
  return { kind: 'down', message: `The node failed: ${first}.` };
}
