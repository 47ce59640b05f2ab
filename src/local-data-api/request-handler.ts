/**
 * The HTTP request pipeline: local routes, then for the API: authentication -> rate limit -> route ->
 * injected fault -> query validation -> page (or one message) from the store, in the path family's shape.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CHAIN_REGISTRY } from '../shared/chains';
import { API_KEY_HEADER, identifyCaller, invalidKeyMessage, missingKeyMessage } from './api-key';
import { LOCAL_PREFIX, matchApiPath } from './api-paths';
import type { FaultAction, FaultInjector } from './faults';
import { listBody, sendError, sendJson, type Body, type Headers } from './http-replies';
import type { PageTokenCodec } from './page-token';
import { piecesForFamily } from './icm-records';
import { lookupMessage } from './message-by-id';
import { answerNativeBalance, matchBalancePath, type BalanceAnswer, type BalancePath } from './native-balance';
import { parseListRequest } from './query-params';
import { requestUrl } from '../shared/request-target';
import { rateLimitHeaders, type SlidingWindowLimiter } from './rate-limit';
import { OPERATION_WEIGHT, type CuLimits } from './compute-units';
import type { Charge, WorldOptions } from './options';
import type { RecordStore } from './store/record-store';
import type { TrafficSimulator } from '../simulator/simulator';
import type { Route, RoutePlan } from '../simulator/route-plan';
import type { OwnNodeStatus } from '../shared/own-nodes';

interface HandlerDeps {
  store: RecordStore;
  simulator: TrafficSimulator;
  tokens: PageTokenCodec;
  limiter: SlidingWindowLimiter;
  faults: FaultInjector;
  apiKeys: ReadonlySet<string>;
  requireKey: boolean;
  /** Whether the store file has been read into the OS cache since start. */
  storeCached: () => boolean;
  /** Per-chain status when the records come from one's own nodes (null: simulated traffic). */
  ownNodes?: () => OwnNodeStatus[] | null;
  /** Own nodes: the balance operation answered from the chain's node (else the simulator's wallets answer). */
  ownNodeBalance?: (path: BalancePath, params: URLSearchParams) => Promise<BalanceAnswer>;
  /** Own nodes: `/_local/relayer-rewards`, the messenger's redeemable rewards read from the chain's node. */
  ownNodeRewards?: (params: URLSearchParams) => Promise<LocalAnswer>;
  /** Each caller's limits in compute units. */
  limits: { keyed: CuLimits; anonymous: CuLimits };
  /** The simulator's behaviours in effect (reported by /_local/info). */
  world: WorldOptions;
  /** Called for each request the rate limit counted, before it is answered (benchmarks: CU spent, a world that moves while a client reads). */
  onCharge?: (charge: Charge) => void;
  /** A request the limit refused (429), with the CU it would have cost. */
  onRefuse?: (refusal: Charge) => void;
  /** Called once per finished request (for logging); never receives the key. */
  onRequest?: (line: { method: string; path: string; status: number; ms: number; caller: 'key' | 'anonymous' }) => void;
}

/** An answer of a local route: a JSON body, or an error status with its message(s). */
export type LocalAnswer = { ok: true; body: string } | { ok: false; status: number; errors: string[] };

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
      else deps.onRefuse?.(charge);
      if (who.kind === 'invalid') return sendError(res, 401, invalidKeyMessage(who.header), headers);
      if (who.kind === 'missing' && deps.requireKey) return sendError(res, 401, missingKeyMessage, headers);
      if (!decision.allowed) {
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

      if (balancePath && deps.ownNodeBalance) {
        return answerLater(res, deps.ownNodeBalance(balancePath, url.searchParams), (a) =>
          a.ok ? reply(res, a.body, headers, fault) : sendError(res, a.status, a.errors, headers),
        );
      }
      if (balancePath) {
        const sim = deps.simulator;
        const answer = answerNativeBalance(sim.wallets, balancePath, url.searchParams, sim.now());
        return answer.ok ? reply(res, answer.body, headers, fault) : sendError(res, answer.status, answer.errors, headers);
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

const pair = (r: Route) => ({ source: r.source.blockchainId, destination: r.destination.blockchainId });

/** The sparse world's routes as blockchain ID pairs. */
const routeIds = (p: RoutePlan) => ({
  busy: [...p.busy.mainnet, ...p.busy.fuji].map(([r]) => pair(r)),
  quiet: p.quiet.map(pair),
  oneWay: p.oneWay.map(pair),
});

function handleLocal(deps: HandlerDeps, req: IncomingMessage, res: ServerResponse, url: URL): void {
  if (url.pathname === `${LOCAL_PREFIX}/info` && (req.method === 'GET' || req.method === 'HEAD')) {
    const sim = deps.simulator;
    const ownNodes = deps.ownNodes?.() ?? null;
    if (ownNodes) {
      return sendJson(res, 200, JSON.stringify({ simulated: false, ownNodes, messageCount: deps.store.count(), storeCached: deps.storeCached() }));
    }
    return sendJson(
      res,
      200,
      JSON.stringify({
        simulated: true,
        seed: sim.seed,
        addresses: sim.addresses,
        hotAddresses: sim.hotAddresses,
        chains: CHAIN_REGISTRY.chains,
        messageCount: deps.store.count(),
        storeCached: deps.storeCached(),
        simulatedTime: Math.floor(sim.now() / 1000),
        world: deps.world,
        ...(sim.routes ? { routes: routeIds(sim.routes) } : {}),
        demoRelayers: sim.demoRelayers(),
        computeUnits: deps.limits,
      }),
    );
  }
  if (url.pathname === `${LOCAL_PREFIX}/relayer-rewards` && deps.ownNodeRewards && (req.method === 'GET' || req.method === 'HEAD')) {
    return answerLater(res, deps.ownNodeRewards(url.searchParams), (a) => (a.ok ? sendJson(res, 200, a.body) : sendError(res, a.status, a.errors)));
  }
  sendError(res, 404, `Cannot ${req.method} ${url.pathname}`);
}
