import { request, type Dispatcher } from 'undici';
import { RefusedTargetError } from './target-lookup';

/** Where a URL points, without path, query or credentials (webhook URLs often carry a secret). */
export const safeOrigin = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return 'an invalid URL';
  }
};

/** A failed delivery: `message` says what happened, `reason` is its short kind ("HTTP 500", "ECONNREFUSED"), which the console reports once per change. */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly reason: string,
  ) {
    super(message);
  }
}

/** The refusal of a resolved address, wherever undici wrapped it. */
function refusal(e: unknown): RefusedTargetError | null {
  for (let x = e, depth = 0; x && depth < 5; x = (x as { cause?: unknown }).cause, depth++) if (x instanceof RefusedTargetError) return x;
  return null;
}

/**
 * POSTs a JSON body and resolves on 2xx; otherwise throws a DeliveryError whose message says what
 * happened (never the URL's path or query, which may hold a token).
 */
export async function postJson(
  dispatcher: Dispatcher,
  url: string,
  body: unknown,
  opts: { timeoutMs: number; headers?: Record<string, string>; signal?: AbortSignal },
): Promise<void> {
  const where = safeOrigin(url);
  let res;
  try {
    res = await request(url, {
      dispatcher,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...opts.headers },
      body: JSON.stringify(body),
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
  } catch (e) {
    const refused = refusal(e);
    if (refused) throw new DeliveryError(refused.message, 'refused address');
    const err = e as { code?: string; name?: string; message?: string };
    const code = err.code ?? err.name ?? '';
    if (/TIMEOUT/i.test(code)) throw new DeliveryError(`${where} did not answer within ${Math.round(opts.timeoutMs / 1000)} s.`, 'timeout');
    throw new DeliveryError(`Cannot reach ${where} (${code || err.message || 'connection failed'}).`, code || 'connection failed');
  }
  const text = await res.body.text().catch(() => '');
  if (res.statusCode < 200 || res.statusCode >= 300) {
    throw new DeliveryError(`${where} answered HTTP ${res.statusCode}${text ? `: ${text.slice(0, 200).trim()}` : ''}.`, `HTTP ${res.statusCode}`);
  }
}
