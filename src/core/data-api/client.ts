import { Pool } from 'undici';
import type { FeedFilter, MessagePage } from '../../shared/contract';
import type { Clock } from '../../shared/clock';
import { MonitorError, type ErrorInfo } from '../../shared/errors';
import type { TeleporterMessage } from '../../shared/messages';
import type { Network } from '../../shared/validators';
import { OPERATION_CU } from '../../shared/plans';
import { DATA_API_BACKOFF_BASE_MS, DATA_API_MAX_RETRIES, DATA_API_MAX_RETRY_AFTER_MS, DATA_API_TIMEOUT_MS, MAX_ANSWER_BYTES } from '../../shared/policy';
import type { RecordSkip } from '../../shared/record-bounds';
import type { Logger } from '../log/logger';
import type { RequestBudget } from './budget';
import { readCappedBody } from './capped-body';
import { httpError, networkError, parseRetryAfter } from './http-errors';
import { otherFamily, PATH_FAMILIES, PathFamilyChoice, type PathFamily } from './path-family';
import { parseListBody, parseMessageBody, type ApiResult } from './response-body';
import { parseNativeBalanceBody, type NativeBalance } from './native-balance';

/** Where the deprecated teleporter family lives under the base URL (see ./path-family for both). */
export const TELEPORTER_PATH = PATH_FAMILIES.teleporter;
export type { ApiResult } from './response-body';
export { parseListBody } from './response-body';

/** The rate-limit headers of the latest answer (the Test key check compares them with and without the key). */
export interface RateLimitSeen {
  limit?: string;
  policy?: string;
}

interface ListQuery extends FeedFilter {
  pageSize?: number;
  pageToken?: string;
}

interface PageQuery {
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
  /** The path family to try first, or a choice shared by every client of the base URL (default: teleporter). */
  family?: PathFamily | PathFamilyChoice;
  /** Retries after a 5xx, network error, timeout or malformed body (default 3). */
  maxRetries?: number;
  /** The longest Retry-After the client waits out itself before returning rate_limited (default 30 s). */
  maxRetryAfterMs?: number;
  timeoutMs?: number;
  backoffBaseMs?: number;
  random?: () => number;
  /** Told the outcome of every request sent (metrics). */
  observe?: (outcome: { ok: true } | { ok: false; error: ErrorInfo }) => void;
  /** Told of every record skipped at the boundary (src/shared/record-bounds.ts), in a page or asked for by ID. */
  onSkipped?: (skipped: readonly RecordSkip[]) => void;
  /** The largest answer read (default MAX_ANSWER_BYTES). */
  maxAnswerBytes?: number;
  /** Where settings are changed, as error advice names it (default: Settings; headless: its config file). */
  settingsPlace?: string;
}

const RETRYABLE = new Set<ErrorInfo['kind']>(['server', 'network', 'timeout', 'invalid_response']);

/**
 * The Data API's list and single-message operations over one keep-alive pool, with validation,
 * retries, the budget, and the path family chosen per data source (ICM or teleporter, see ./path-family).
 */
export class DataApiClient {
  readonly host: string;
  readonly baseUrl: string;
  readonly paths: PathFamilyChoice;
  lastRateLimit: RateLimitSeen | null = null;

  constructor(private readonly o: ClientOptions) {
    this.baseUrl = o.baseUrl;
    const u = new URL(o.baseUrl);
    this.host = u.host;
    this.paths = o.family instanceof PathFamilyChoice ? o.family : new PathFamilyChoice(u.pathname.replace(/\/+$/, ''), o.family ?? 'teleporter');
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
    return this.inFamily((prefix) => this.get(`${prefix}/messages`, params, parseListBody, signal, true, OPERATION_CU.list)).then((r) => this.noteSkips(r));
  }

  listAddressMessages(address: string, q: PageQuery = {}, signal?: AbortSignal): Promise<ApiResult<MessagePage>> {
    const params = { pageToken: q.pageToken, pageSize: q.pageSize?.toString() };
    return this.inFamily((prefix) =>
      this.get(`${prefix}/addresses/${encodeURIComponent(address)}/messages`, params, parseListBody, signal, true, OPERATION_CU.addressList),
    ).then((r) => this.noteSkips(r));
  }

  /**
   * One message by its ID (`GET .../messages/{messageId}`, no network parameter). A 404 from both
   * families means no such message: the error says so (kind not_found) rather than blaming the URL.
   */
  async getMessage(messageId: string, signal?: AbortSignal): Promise<ApiResult<TeleporterMessage>> {
    const r = await this.inFamily((prefix) =>
      this.get(`${prefix}/messages/${encodeURIComponent(messageId)}`, {}, parseMessageBody, signal, false, OPERATION_CU.byId),
    );
    if (!r.ok && r.skipped) this.o.onSkipped?.([r.skipped]);
    if (r.ok || r.error.kind !== 'not_found') return r;
    return { ok: false, error: { kind: 'not_found', status: 404, message: `${this.host} has no message with ID ${messageId} on any network.` } };
  }

  /**
   * An address's native (gas) balance on a chain (`GET /v1/chains/{chainId}/addresses/{address}/balances:getNative`,
   * USD prices): through the same budget, retries and rate-limit handling as the message operations.
   */
  getNativeBalance(chainId: string, address: string, signal?: AbortSignal): Promise<ApiResult<NativeBalance>> {
    const path = `${this.paths.basePath}/v1/chains/${encodeURIComponent(chainId)}/addresses/${encodeURIComponent(address)}/balances:getNative`;
    return this.get(path, { currency: 'usd' }, parseNativeBalanceBody, signal, false, OPERATION_CU.nativeBalance);
  }

  /** Tells whoever counts them of a page's skipped records. */
  private noteSkips(r: ApiResult<MessagePage>): ApiResult<MessagePage> {
    if (r.ok && r.value.skipped?.length) this.o.onSkipped?.(r.value.skipped);
    return r;
  }

  /** Runs an operation in the current family; on 404 tries the other family once and keeps it if it answers. */
  private async inFamily<T>(op: (prefix: string) => Promise<ApiResult<T>>): Promise<ApiResult<T>> {
    const first = this.paths.current;
    const r = await op(this.paths.prefix(first));
    if (r.ok || r.error.kind !== 'not_found') return r;
    const other = otherFamily(first);
    const retry = await op(this.paths.prefix(other));
    if (!retry.ok && retry.error.kind === 'not_found') return r;
    if (retry.ok) {
      this.paths.confirm(other);
      this.o.logger.info('data source answers another path family; using it from now on', { host: this.host, family: other });
    }
    return retry;
  }

  private async get<T>(
    path: string,
    params: Record<string, string | undefined>,
    parse: (text: string, host: string, now: number) => ApiResult<T>,
    signal?: AbortSignal,
    withNetwork = true,
    /** The operation's weight in compute units. */
    cu: number = OPERATION_CU.list,
  ): Promise<ApiResult<T>> {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') search.set(k, v);
    if (withNetwork) search.set('network', this.o.network);
    const query = search.toString();
    const url = query ? `${path}?${query}` : path;
    const maxRetries = this.o.maxRetries ?? DATA_API_MAX_RETRIES;
    let last: ErrorInfo | null = null;
    for (let attempt = 0; attempt <= maxRetries; attempt++) {
      const r = await this.once(url, parse, signal, cu);
      // A record skipped at the boundary came in a good answer: counted as such, and never asked again.
      this.o.observe?.(r.ok || r.skipped ? { ok: true } : { ok: false, error: r.error });
      if (r.ok || r.skipped) return r;
      last = r.error;
      if (signal?.aborted) break;
      if (r.error.kind === 'rate_limited' && r.error.status !== 429) break; // the local budget's queue gave up: it said why
      if (r.error.kind === 'rate_limited') {
        const now = this.o.clock.now();
        const until = r.error.retryAt ?? now + this.backoff(attempt);
        this.o.budget.blockUntil(until);
        if (until - now > (this.o.maxRetryAfterMs ?? DATA_API_MAX_RETRY_AFTER_MS) || attempt === maxRetries) break;
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
    const base = (this.o.backoffBaseMs ?? DATA_API_BACKOFF_BASE_MS) * 2 ** attempt;
    return Math.round(base * (0.5 + 0.5 * (this.o.random ?? Math.random)()));
  }

  private async once<T>(
    url: string,
    parse: (text: string, host: string, now: number) => ApiResult<T>,
    signal: AbortSignal | undefined,
    cu: number,
  ): Promise<ApiResult<T>> {
    try {
      await this.o.budget.acquire(signal, cu);
    } catch (e) {
      // Waited too long for the budget (the error says why), or cancelled.
      return { ok: false, error: e instanceof MonitorError ? e.toInfo() : { kind: 'network', message: 'Request cancelled.' } };
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    const key = this.o.apiKey();
    if (key) headers[this.o.apiKeyHeader.toLowerCase()] = key;
    const timeoutMs = this.o.timeoutMs ?? DATA_API_TIMEOUT_MS;
    let status: number;
    let text: string;
    let getHeader: (n: string) => string | undefined;
    try {
      const res = await this.o.pool.request({
        path: url,
        method: 'GET',
        headers,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        ...(signal ? { signal } : {}),
      });
      status = res.statusCode;
      getHeader = (n) => {
        const v = res.headers[n];
        return Array.isArray(v) ? v[0] : v;
      };
      const body = await readCappedBody(res.body, this.o.maxAnswerBytes ?? MAX_ANSWER_BYTES, getHeader('content-length'));
      if (body === null) {
        const mb = Math.round((this.o.maxAnswerBytes ?? MAX_ANSWER_BYTES) / 1_048_576);
        return {
          ok: false,
          error: {
            kind: 'invalid_response',
            message: `${this.host} sent an answer larger than ${mb} MB: it was not read. Retrying; if it persists the base URL may point at the wrong service.`,
          },
        };
      }
      text = body;
    } catch (e) {
      return { ok: false, error: networkError(e, this.host, timeoutMs, this.o.settingsPlace) };
    }
    this.o.budget.observeHeaders(getHeader);
    this.lastRateLimit = { ...optional('limit', getHeader('ratelimit-limit')), ...optional('policy', getHeader('ratelimit-policy')) };
    if (status < 200 || status >= 300) {
      const retryAt = status === 429 ? parseRetryAfter(getHeader('retry-after'), this.o.clock.now()) : undefined;
      return { ok: false, error: httpError(status, text, this.host, retryAt, this.o.clock.now(), this.o.settingsPlace) };
    }
    return parse(text, this.host, this.o.clock.now());
  }
}

const optional = <K extends string>(k: K, v: string | undefined): Partial<Record<K, string>> => (v === undefined ? {} : ({ [k]: v } as Record<K, string>));
