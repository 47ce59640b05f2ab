/**
 * The HTTP request pipeline: local routes, then for the API: authentication -> rate limit -> route ->
 * injected fault -> query validation -> page (or one message) from the store, in the path family's shape.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_KEY_HEADER, identifyCaller, invalidKeyMessage, missingKeyMessage } from './api-key';
import { LOCAL_PREFIX, matchApiPath } from './api-paths';
import type { FaultAction, FaultInjector } from './faults';
import { listBody, sendError, sendJson, type Body, type Headers } from './http-replies';
import type { PageTokenCodec } from './page-token';
import { piecesForFamily } from './icm-records';
import { lookupMessage } from './message-by-id';
import { matchBalancePath } from './native-balance';
import { parseListRequest } from './query-params';
import { requestUrl } from '../shared/request-target';
import { rateLimitHeaders, type SlidingWindowLimiter } from './rate-limit';
import { OPERATION_WEIGHT, type CuLimits } from './compute-units';
import type { Charge } from './options';
import type { RecordStore } from './store/record-store';
import type { World } from './world';

interface HandlerDeps {
  store: RecordStore;
  /** The world the records come from: it answers balances, its local routes, and what /_local/info says of it. */
  world: World;
  tokens: PageTokenCodec;
  limiter: SlidingWindowLimiter;
  faults: FaultInjector;
  apiKeys: ReadonlySet<string>;
  requireKey: boolean;
  /** Whether the store file has been read into the OS cache since start. */
  storeCached: () => boolean;
  /** Each caller's limits in compute units. */
  limits: { keyed: CuLimits; anonymous: CuLimits };
  /** Called for each request the rate limit counted, before it is answered (benchmarks: CU spent, a world that moves while a client reads). */
  onCharge?: (charge: Charge) => void;
  /** Called for each request the rate limit refused (429), with what it would have cost. */
  onRefused?: (charge: Charge) => void;
  /** Called once per finished request (for logging); never receives the key. */
  onRequest?: (line: { method: string; path: string; status: number; ms: number; caller: 'key' | 'anonymous' }) => void;
}

export function createRequestHandler(deps: HandlerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const started = performance.now();
    const url = requestUrl(req.url);
    let caller: 'key' | 'anonymous' = 'anonymous';
    res.on('finish', () =>
      deps.onRequest?.({ method: req.method ?? 'GET', path: url?.pathname ?? '(bad target)', status: res.statusCode, ms: performance.now() - started, caller }),
    );
    try {
      if (!url) return sendError(res, 400, 'Bad request: the request target must be a path starting with "/".');
      if (url.pathname === LOCAL_PREFIX || url.pathname.startsWith(LOCAL_PREFIX + '/')) return handleLocal(deps, req, res, url);

      // Authentication: a wrong key is always refused; a missing one only with requireKey.
      const who = identifyCaller(req.headers, deps.apiKeys);
      const keyValid = who.kind === 'valid';
      if (keyValid) caller = 'key';
      const bucket = keyValid ? `key:${who.key}` : `anonymous:${req.socket.remoteAddress ?? ''}`;
      // The balance operation (getNative) is Medium on the public page, as 'other' weighs here.
      const balancePath = matchBalancePath(url.pathname);
      const route = balancePath ? null : matchApiPath(url.pathname);
      const cost = OPERATION_WEIGHT[route?.operation ?? 'other'];
      const decision = deps.limiter.take(bucket, keyValid ? deps.limits.keyed : deps.limits.anonymous, cost);
      const headers = rateLimitHeaders(decision);
      const charge: Charge = { caller: keyValid ? 'key' : 'anonymous', cu: cost, path: url.pathname, ...(keyValid ? { key: who.key } : {}) };
      if (decision.allowed) deps.onCharge?.(charge);
      if (who.kind === 'invalid') return sendError(res, 401, invalidKeyMessage(who.header), headers);
      if (who.kind === 'missing' && deps.requireKey) return sendError(res, 401, missingKeyMessage, headers);
      if (!decision.allowed) {
        deps.onRefused?.(charge);
        const who = keyValid ? 'this API key' : `anonymous callers (send an ${API_KEY_HEADER} for a higher limit)`;
        const per = decision.window === 'day' ? 'day (it resets at 00:00 UTC)' : 'minute';
        return sendError(
          res,
          429,
          `Too many requests: the limit is ${decision.limit} compute units per ${per} for ${who}; this call costs ${cost}; retry after ${decision.resetSeconds} s.`,
          {
            ...headers,
            'retry-after': String(decision.resetSeconds),
          },
        );
      }

      if (!route && !balancePath) return sendError(res, 404, `Cannot ${req.method} ${url.pathname}`, headers);
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        return sendError(res, 405, `Method ${req.method} is not allowed on ${url.pathname}; use GET.`, { ...headers, allow: 'GET, HEAD' });
      }

      const fault = deps.faults.decide();
      if (fault.kind === 'reset') return void req.socket.destroy();
      if (fault.kind === 'timeout') {
        // Never answered: the client's own timeout fires first; the connection is closed after `ms`.
        const held = setTimeout(() => req.socket.destroy(), fault.ms);
        res.once('close', () => clearTimeout(held));
        return;
      }
      if (fault.kind === 'error') return sendError(res, fault.status, FAULT_MESSAGES[fault.status], headers);
      if (fault.kind === 'rate_limited') {
        return sendError(res, 429, `Too many requests: rate limit exceeded; retry after ${fault.retryAfter} s.`, {
          ...headers,
          'ratelimit-remaining': '0',
          'ratelimit-reset': String(fault.retryAfter),
          'retry-after': String(fault.retryAfter),
        });
      }

      if (balancePath) {
        // A world answers from memory (the simulator's wallets) or from a node (own nodes): either way once it comes.
        return answerLater(res, Promise.resolve(deps.world.balance(balancePath, url.searchParams)), (a) =>
          a.ok ? reply(res, a.body, headers, fault) : sendError(res, a.status, a.errors, headers),
        );
      }
      if (!route) return sendError(res, 404, `Cannot ${req.method} ${url.pathname}`, headers);
      if (route.operation === 'message') {
        const found = lookupMessage(deps.store, route.messageId ?? '', route.family);
        return found.ok ? reply(res, found.body, headers, fault) : sendError(res, found.status, found.message, headers);
      }
      const parsed = parseListRequest(route.operation, url.searchParams, route.address);
      if (!parsed.ok) return sendError(res, 400, parsed.errors, headers);
      const q = parsed.value;
      let before: number | undefined;
      if (q.pageToken !== undefined) {
        const t = deps.tokens.decode(q.pageToken, q.fingerprint);
        if (!t.ok) return sendError(res, 400, [t.error], headers);
        before = t.value;
      }
      const page = deps.store.pageJson(q.filter, before, q.pageSize);
      const next = page.hasMore && page.last !== undefined ? deps.tokens.encode(page.last, q.fingerprint) : undefined;
      reply(res, listBody(piecesForFamily(page.json, route.family), next), headers, fault);
    } catch (e) {
      if (!res.headersSent) sendError(res, 500, `Internal server error: ${e instanceof Error ? e.message : String(e)}`);
      else res.destroy();
    }
  };
}

/** Sends what an answer read from a node says once it comes (nothing when the client left meanwhile). */
function answerLater<T>(res: ServerResponse, answer: Promise<T>, send: (a: T) => void): void {
  answer.then(
    (a) => {
      if (!res.destroyed && !res.headersSent) send(a);
    },
    (e: unknown) => {
      if (!res.destroyed && !res.headersSent) sendError(res, 500, `Internal server error: ${e instanceof Error ? e.message : String(e)}`);
    },
  );
}

const FAULT_MESSAGES = { 500: 'Internal server error', 502: 'Bad gateway: upstream indexer did not answer', 503: 'Service temporarily unavailable' } as const;

/** A successful page, possibly delayed or damaged by an injected fault. */
function reply(res: ServerResponse, body: Body, headers: Headers, fault: FaultAction): void {
  if (fault.kind === 'slow') {
    const timer = setTimeout(() => {
      if (!res.destroyed) sendJson(res, 200, body, headers);
    }, fault.ms);
    res.on('close', () => clearTimeout(timer));
    return;
  }
  if (fault.kind === 'malformed') {
    const whole = typeof body === 'string' ? Buffer.from(body) : Buffer.concat(body.map((b) => (typeof b === 'string' ? Buffer.from(b) : b)));
    const broken =
      fault.variant === 'truncated'
        ? [whole.subarray(0, Math.max(1, Math.floor(whole.length / 2)))]
        : fault.variant === 'not_json'
          ? '<html><body>502 Bad Gateway</body></html>'
          : '{"messages":"unavailable","nextPageToken":42}';
    return sendJson(res, 200, broken, headers);
  }
  sendJson(res, 200, body, headers);
}

function handleLocal(deps: HandlerDeps, req: IncomingMessage, res: ServerResponse, url: URL): void {
  const read = req.method === 'GET' || req.method === 'HEAD';
  if (url.pathname === `${LOCAL_PREFIX}/info` && read) {
    const server = { messageCount: deps.store.count(), storeCached: deps.storeCached(), computeUnits: deps.limits };
    return sendJson(res, 200, JSON.stringify({ ...deps.world.info(), ...server }));
  }
  const rewards = deps.world.rewards?.bind(deps.world);
  if (url.pathname === `${LOCAL_PREFIX}/relayer-rewards` && rewards && read) {
    return answerLater(res, rewards(url.searchParams), (a) => (a.ok ? sendJson(res, 200, a.body) : sendError(res, a.status, a.errors)));
  }
  sendError(res, 404, `Cannot ${req.method} ${url.pathname}`);
}
