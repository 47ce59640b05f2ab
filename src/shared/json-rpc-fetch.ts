/**
 * The fetch every JSON-RPC client of a user's node goes through (viem's `fetchFn`): an answer is read
 * only up to a size cap (an endless or oversized body is cut, never buffered whole), must be JSON-RPC
 * (an object or a batch of them) and must carry the request's own `id` (a reply to another request is
 * a lying or confused node, never data). Slow bodies are cut by the caller's timeout: viem's abort
 * signal is passed on and stops the read.
 */

/** The most a node's answer may hold: 16 MiB. A log range answer above it is read again in smaller ranges. */
export const MAX_NODE_ANSWER_BYTES = 16 * 1024 * 1024;

type NodeAnswerProblem = 'oversized' | 'malformed' | 'wrong_id';

/** A node's answer that is not used, and why, in words a person can act on. */
export class NodeAnswerError extends Error {
  override readonly name = 'NodeAnswerError';
  constructor(
    readonly problem: NodeAnswerProblem,
    message: string,
  ) {
    super(message);
  }
}

async function readCapped(res: Response, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw oversized(maxBytes);
  }
  if (!res.body) return '';
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw oversized(maxBytes);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(all);
}

const oversized = (maxBytes: number) =>
  // "response size" lets a log range that is too big be read again in smaller ranges.
  new NodeAnswerError('oversized', `The node's answer was larger than ${Math.round(maxBytes / 1024 / 1024)} MB (response size limit): it was not read.`);

type Id = string | number | null;
const idsOf = (body: unknown): Id[] => {
  if (typeof body !== 'string') return [];
  try {
    const parsed = JSON.parse(body) as { id?: Id } | { id?: Id }[];
    return (Array.isArray(parsed) ? parsed : [parsed]).map((r) => r.id ?? null);
  } catch {
    return [];
  }
};

const isReply = (r: unknown): r is { id?: Id; result?: unknown; error?: unknown } =>
  typeof r === 'object' && r !== null && !Array.isArray(r) && ('result' in r || 'error' in r);

/** Checks that a 2xx answer is JSON-RPC for exactly the ids that were asked. */
function checkReply(text: string, asked: readonly Id[]): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new NodeAnswerError('malformed', 'The node answered with something that is not JSON: it is not read until it answers JSON-RPC.');
  }
  const replies = Array.isArray(parsed) ? parsed : [parsed];
  if (!replies.length || !replies.every(isReply)) {
    throw new NodeAnswerError('malformed', 'The node answered JSON that is not a JSON-RPC reply (no result or error): it is not read until it does.');
  }
  for (const r of replies) {
    // An error about a request the node could not read may carry id null (JSON-RPC 2.0, 5.1).
    if (r.id === null && 'error' in r) continue;
    if (!asked.includes(r.id ?? null)) {
      throw new NodeAnswerError(
        'wrong_id',
        `The node answered request ${JSON.stringify(r.id ?? null).slice(0, 40)} when ${asked.map((a) => JSON.stringify(a)).join(', ')} was asked: a reply to another request is not used.`,
      );
    }
  }
}

const retryAfter = (res: Response): Record<string, string> => {
  const v = res.headers.get('retry-after');
  return v ? { 'retry-after': v } : {};
};

/** A fetch for viem's http transport that enforces the cap, the JSON-RPC shape and the ids. */
export function guardedJsonRpcFetch(maxBytes = MAX_NODE_ANSWER_BYTES): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    const text = await readCapped(res, maxBytes);
    if (res.ok) checkReply(text, idsOf(init?.body));
    // A refusal (429, 5xx) keeps its own content type: viem reads a JSON-RPC error from it, else the status.
    const type = res.ok ? 'application/json' : (res.headers.get('content-type') ?? 'text/plain');
    return new Response(text, { status: res.status, statusText: res.statusText, headers: { 'content-type': type, ...retryAfter(res) } });
  };
}
