import { request, type Dispatcher } from 'undici';

/** Where a URL points, without path, query or credentials (webhook URLs often carry a secret). */
export const safeOrigin = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return 'an invalid URL';
  }
};

/**
 * POSTs a JSON body and resolves on 2xx; otherwise throws an Error whose message says what happened
 * (never the URL's path or query, which may hold a token).
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
    const err = e as { code?: string; name?: string; message?: string };
    const code = err.code ?? err.name ?? '';
    if (/TIMEOUT/i.test(code)) throw new Error(`${where} did not answer within ${Math.round(opts.timeoutMs / 1000)} s.`);
    throw new Error(`Cannot reach ${where} (${code || err.message || 'connection failed'}).`);
  }
  const text = await res.body.text().catch(() => '');
  if (res.statusCode < 200 || res.statusCode >= 300) {
    throw new Error(`${where} answered HTTP ${res.statusCode}${text ? `: ${text.slice(0, 200).trim()}` : ''}.`);
  }
}
