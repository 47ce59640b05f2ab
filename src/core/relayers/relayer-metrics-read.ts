/**
 * Reads a relayer's Prometheus endpoint: one GET with a timeout and a size cap. Whatever the answer
 * (refused, slow, huge, an error status), the result is a reason in words, never a throw: not being
 * able to read the relayer is a state the view shows, not a fault of the monitor.
 */
import { request } from 'undici';
import { metadataHost } from '../../shared/relayer-own-view';

export type MetricsText = { ok: true; text: string } | { ok: false; reason: string };

export interface ReadLimits {
  timeoutMs: number;
  maxBytes: number;
}

/** Only http(s): the URL is the user's, and nothing else is a metrics page. */
export function metricsUrlProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'Metrics URL is not a URL (like http://127.0.0.1:9090/metrics).';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `Metrics URL must start with http:// or https:// (got ${u.protocol}).`;
  const metadata = metadataHost(url);
  return metadata ? `Metrics URL ${metadata}: refused.` : null;
}

const reasonOf = (e: unknown): string => {
  const code = (e as { code?: unknown; cause?: { code?: unknown } }).code ?? (e as { cause?: { code?: unknown } }).cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused (is the relayer running, and its metrics-port this one?)';
  if (code === 'ENOTFOUND') return 'host not found';
  return typeof code === 'string' ? code : 'the request failed';
};

export async function readMetricsText(url: string, limits: ReadLimits): Promise<MetricsText> {
  const problem = metricsUrlProblem(url);
  if (problem) return { ok: false, reason: problem };
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), limits.timeoutMs);
  const slow = `no complete answer within ${limits.timeoutMs / 1000} s`;
  try {
    const res = await request(url, { method: 'GET', signal: abort.signal, headers: { accept: 'text/plain' } });
    // A body dropped early (an error status, past the cap, the timeout) errors as it closes: that is no fault.
    res.body.on('error', () => undefined);
    if (res.statusCode !== 200) {
      res.body.destroy();
      return { ok: false, reason: `HTTP ${res.statusCode}` };
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limits.maxBytes) {
        res.body.destroy();
        return { ok: false, reason: `the answer is larger than ${limits.maxBytes.toLocaleString('en-US')} bytes` };
      }
      chunks.push(chunk);
    }
    return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
  } catch (e) {
    return { ok: false, reason: abort.signal.aborted ? slow : reasonOf(e) };
  } finally {
    clearTimeout(timer);
  }
}
