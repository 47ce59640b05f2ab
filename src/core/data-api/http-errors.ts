import type { ErrorInfo } from '../../shared/errors';
import { ApiErrorBodySchema } from '../../shared/messages';
import { MAX_REASON_CHARS } from '../../shared/policy';

/** Where a person changes the settings, as advice names it: the app's Settings, or the headless watcher's config file. */
export const IN_SETTINGS = 'Settings';

/** Turns a non-2xx response into an error value whose message says what to do about it (`place`: where settings are changed). */
export function httpError(status: number, bodyText: string, host: string, retryAt?: number, now?: number, place = IN_SETTINGS): ErrorInfo {
  const detail = apiMessage(bodyText);
  const suffix = detail ? `: ${detail}` : '';
  if (status === 429) {
    const secs = retryAt !== undefined && now !== undefined ? Math.max(1, Math.ceil((retryAt - now) / 1000)) : null;
    const wait =
      secs !== null ? ` It asked to wait ${secs} s; polling resumes then.` : retryAt !== undefined ? ' Polling resumes after the wait the API asked for.' : '';
    return {
      kind: 'rate_limited',
      status,
      message: `${host} is rate limiting requests (HTTP 429).${wait} An API key or a longer poll interval raises the headroom.`,
      ...(retryAt !== undefined ? { retryAt } : {}),
    };
  }
  if (status === 401 || status === 403) {
    return {
      kind: 'unauthorized',
      status,
      message: `${host} refused the API key (HTTP ${status})${suffix}. Check or replace the key in ${place}, or delete it to use the keyless limit.`,
    };
  }
  if (status === 404) {
    return { kind: 'not_found', status, message: `${host} has no such endpoint (HTTP 404)${suffix}. Check the data source base URL in ${place}.` };
  }
  if (status >= 400 && status < 500) {
    return { kind: 'bad_request', status, message: `${host} rejected the request (HTTP ${status})${suffix}.` };
  }
  return { kind: 'server', status, message: `${host} had a server error (HTTP ${status})${suffix}. Retrying with backoff.` };
}

function apiMessage(bodyText: string): string {
  try {
    const parsed = ApiErrorBodySchema.safeParse(JSON.parse(bodyText));
    if (!parsed.success) return '';
    const m = parsed.data.message;
    return shortReason(Array.isArray(m) ? m.join('; ') : m);
  } catch {
    return '';
  }
}

/**
 * Upstream text is reduced to a short single-line reason: the user needs the status and the gist.
 * It is cut between words, never inside one, so a secret the upstream echoed is either whole (and
 * the core's redaction replaces it) or gone: never a fragment that redaction cannot recognise.
 */
function shortReason(text: string): string {
  const line = text
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (line.length <= MAX_REASON_CHARS) return line;
  const cut = line.slice(0, MAX_REASON_CHARS + 1);
  const end = cut.lastIndexOf(' ');
  return end > 0 ? `${cut.slice(0, end)} …` : '';
}

export function networkError(e: unknown, host: string, timeoutMs: number, place = IN_SETTINGS): ErrorInfo {
  const err = e as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code ?? '';
  if (/TIMEOUT/i.test(code) || err.name === 'TimeoutError') {
    return { kind: 'timeout', message: `${host} did not answer within ${Math.round(timeoutMs / 1000)} s. Retrying; check the connection if this persists.` };
  }
  const why = code || err.message || 'connection failed';
  return { kind: 'network', message: `Cannot reach ${host} (${why}). Check the network connection or the data source in ${place}; polling resumes by itself.` };
}

/** Retry-After in seconds or as an HTTP date, as epoch ms; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return now + Math.ceil(Number(v) * 1000);
  const date = Date.parse(v);
  return Number.isNaN(date) ? undefined : Math.max(now, date);
}
