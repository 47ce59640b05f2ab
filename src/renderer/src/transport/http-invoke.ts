import type { InvokeResponse, MonitorMethod } from '../../../shared/contract';
import { isErrorInfo, type ErrorInfo } from '../../../shared/errors';
import { WEB_INVOKE_PREFIX } from '../../../shared/web-protocol';

/** What the page says when it cannot reach the web host at all. */
const HOST_UNREACHABLE = 'Cannot reach the web host. Is `npm run start:web` still running?';

const refusal = (status: number): ErrorInfo => {
  if (status === 401)
    return { kind: 'unauthorized', status, message: 'The web host refused the launch token. Open the URL the host printed (with ?token=…) again.' };
  if (status === 403)
    return { kind: 'unauthorized', status, message: 'The web host refused this page (Host or Origin). Open it at the 127.0.0.1 URL the host printed.' };
  if (status === 404)
    return {
      kind: 'not_found',
      status,
      message: 'The web host does not know this operation; the page and the host may be different versions. Reload the page.',
    };
  if (status === 413) return { kind: 'bad_request', status, message: 'The request was too large for the web host.' };
  return { kind: 'server', status, message: `The web host answered HTTP ${status}. Check the terminal that runs it.` };
};

/** An InvokeResponse from whatever the host sent (over HTTP or the socket), checked for shape. */
export function toInvokeResponse(body: unknown): InvokeResponse {
  if (typeof body === 'object' && body !== null && 'ok' in body) {
    const r = body as { ok: unknown; value?: unknown; error?: unknown };
    if (r.ok === true) return { ok: true, value: r.value };
    if (r.ok === false && isErrorInfo(r.error)) return { ok: false, error: r.error };
  }
  return { ok: false, error: { kind: 'invalid_response', message: 'The web host sent a reply of an unexpected shape.' } };
}

/** One call as `POST /api/invoke/<method>`: the fallback while the socket is not open. */
export async function httpInvoke(doFetch: typeof fetch, origin: string, token: string, method: MonitorMethod, input: unknown): Promise<InvokeResponse> {
  let res: Response;
  try {
    res = await doFetch(new URL(WEB_INVOKE_PREFIX + method, origin).toString(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ input: input ?? null }),
    });
  } catch {
    return { ok: false, error: { kind: 'network', message: HOST_UNREACHABLE } };
  }
  if (res.status !== 200) return { ok: false, error: refusal(res.status) };
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    return { ok: false, error: { kind: 'invalid_response', message: 'The web host sent a reply that is not JSON.' } };
  }
  return toInvokeResponse(body);
}
