import { Pool } from 'undici';
import type { FeedFilter, MessagePage } from '../../shared/api';
import type { Clock } from '../../shared/clock';
import { MonitorError, type ErrorInfo } from '../../shared/errors';
import { ListEnvelopeSchema, parseMessage, type TeleporterMessage } from '../../shared/messages';
import type { Network } from '../../shared/validators';
import type { Logger } from '../facade';
import type { RequestBudget } from './budget';
import { httpError, networkError, parseRetryAfter } from './http-errors';

/** Where the teleporter operations live under the base URL; the public API also serves `/v1/icm`. */
export const TELEPORTER_PATH = '/v1/teleporter';

export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo };

export interface ListQuery extends FeedFilter {
  pageSize?: number;
  pageToken?: string;
}

export interface PageQuery {
  pageSize?: number;
  pageToken?: string;
}

export interface ClientOptions {
  baseUrl: string;
  network: Network;
  pool: Pool;
  budget: RequestBudget;
  clock: Clock;
  logger: Logger;
  apiKey: () => string | null;
  apiKeyHeader: string;
  /** Retries after a 5xx, network error, timeout or malformed body (default 3). */
  maxRetries?: number;
  /** The longest Retry-After the client waits out itself before returning rate_limited (default 30 s). */
  maxRetryAfterMs?: number;
  timeoutMs?: number;
  backoffBaseMs?: number;
  random?: () => number;
  /** Told the outcome of every request sent (metrics). */
  observe?: (outcome: { ok: true } | { ok: false; error: ErrorInfo }) => void;
}

const RETRYABLE = new Set<ErrorInfo['kind']>(['server', 'network', 'timeout', 'invalid_response']);

/** The Data API's two list operations over one keep-alive pool, with validation, retries and the budget. */
export class DataApiClient {
  readonly host: string;
  readonly baseUrl: string;
  private readonly prefix: string;

  constructor(private readonly o: ClientOptions) {
    this.baseUrl = o.baseUrl;
    const u = new URL(o.baseUrl);
    this.host = u.host;
    this.prefix = u.pathname.replace(/\/+$/, '') + TELEPORTER_PATH;
  }

  get network(): Network {
    return this.o.network;
  }

  listMessages(q: ListQuery = {}, signal?: AbortSignal): Promise<ApiResult<MessagePage>> {
    const params: Record<string, string | undefined> = {
      pageToken: q.pageToken,
      pageSize: q.pageSize?.toString(),
      sourceBlockchainId: q.sourceBlockchainId,
      destinationBlockchainId: q.destinationBlockchainId,
      blockchainId: q.blockchainId,
      to: q.to,
      from: q.from,
    };
    return this.get(`${this.prefix}/messages`, params, signal);
  }

  listAddressMessages(address: string, q: PageQuery = {}, signal?: AbortSignal): Promise<ApiResult<MessagePage>> {
    const params = { pageToken: q.pageToken, pageSize: q.pageSize?.toString() };
    return this.get(`${this.prefix}/addresses/${encodeURIComponent(address)}/messages`, params, signal);
  }

  /** Pages of either operation, newest first, until there is no next page, an error, or the caller stops. */
  async *pages(fetchPage: (pageToken: string | undefined) => Promise<ApiResult<MessagePage>>): AsyncGenerator<ApiResult<MessagePage>> {
    let token: string | undefined;
    for (;;) {
      const r = await fetchPage(token);
      yield r;
      if (!r.ok || !r.value.nextPageToken) return;
      token = r.value.nextPageToken;
    }
  }

  private async get(path: string, params: Record<string, string | undefined>, signal?: AbortSignal): Promise<ApiResult<MessagePage>> {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') search.set(k, v);
    search.set('network', this.o.network);
    const url = `${path}?${search.toString()}`;
    const maxRetries = this.o.maxRetries ?? 3;
    let last: ErrorInfo | null = null;
    for (let attempt = 0; attempt <= maxRetries; attempt++) {
      const r = await this.once(url, signal);
      this.o.observe?.(r.ok ? { ok: true } : { ok: false, error: r.error });
      if (r.ok) return r;
      last = r.error;
      if (signal?.aborted) break;
      if (r.error.kind === 'rate_limited' && r.error.status !== 429) break; // the local budget's queue gave up: it said why
      if (r.error.kind === 'rate_limited') {
        const now = this.o.clock.now();
        const until = r.error.retryAt ?? now + this.backoff(attempt);
        this.o.budget.blockUntil(until);
        if (until - now > (this.o.maxRetryAfterMs ?? 30_000) || attempt === maxRetries) break;
        this.o.logger.warn('rate limited; waiting as asked', { host: this.host, waitMs: until - now });
        continue; // acquire() in once() waits until `until`.
      }
      if (!RETRYABLE.has(r.error.kind) || attempt === maxRetries) break;
      const wait = this.backoff(attempt);
      this.o.logger.warn('request failed; backing off', { host: this.host, kind: r.error.kind, status: r.error.status, waitMs: wait });
      try {
        await this.o.clock.sleep(wait, signal);
      } catch {
        break;
      }
    }
    return { ok: false, error: last ?? { kind: 'internal', message: 'Request failed.' } };
  }

  /** Exponential backoff with jitter: base × 2^attempt, scaled by 0.5–1.0 so clients spread out. */
  private backoff(attempt: number): number {
    const base = (this.o.backoffBaseMs ?? 500) * 2 ** attempt;
    return Math.round(base * (0.5 + 0.5 * (this.o.random ?? Math.random)()));
  }

  private async once(url: string, signal?: AbortSignal): Promise<ApiResult<MessagePage>> {
    try {
      await this.o.budget.acquire(signal);
    } catch (e) {
      // Waited too long for the budget (the error says why), or cancelled.
      return { ok: false, error: e instanceof MonitorError ? e.toInfo() : { kind: 'network', message: 'Request cancelled.' } };
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    const key = this.o.apiKey();
    if (key) headers[this.o.apiKeyHeader.toLowerCase()] = key;
    const timeoutMs = this.o.timeoutMs ?? 15_000;
    let status: number;
    let text: string;
    let getHeader: (n: string) => string | undefined;
    try {
      const res = await this.o.pool.request({ path: url, method: 'GET', headers, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, ...(signal ? { signal } : {}) });
      status = res.statusCode;
      getHeader = (n) => {
        const v = res.headers[n];
        return Array.isArray(v) ? v[0] : v;
      };
      text = await res.body.text();
    } catch (e) {
      return { ok: false, error: networkError(e, this.host, timeoutMs) };
    }
    this.o.budget.observeHeaders(getHeader);
    if (status < 200 || status >= 300) {
      const retryAt = status === 429 ? parseRetryAfter(getHeader('retry-after'), this.o.clock.now()) : undefined;
      return { ok: false, error: httpError(status, text, this.host, retryAt, this.o.clock.now()) };
    }
    return parseListBody(text, this.host, this.o.clock.now());
  }
}

export function parseListBody(text: string, host: string, now: number): ApiResult<MessagePage> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: { kind: 'invalid_response', message: `${host} sent a response that is not JSON. Retrying; if it persists the base URL may point at the wrong service.` } };
  }
  const env = ListEnvelopeSchema.safeParse(json);
  if (!env.success) {
    return { ok: false, error: { kind: 'invalid_response', message: `${host} sent a response without a messages list. Retrying; if it persists check the base URL.` } };
  }
  const messages: TeleporterMessage[] = [];
  let rejected = 0;
  for (const raw of env.data.messages) {
    const m = parseMessage(raw);
    if (m) messages.push(m);
    else rejected++;
  }
  const page: MessagePage = { messages, rejected, fetchedAt: now };
  if (env.data.nextPageToken) page.nextPageToken = env.data.nextPageToken;
  return { ok: true, value: page };
}
