/** Shared helpers of the service tests: start real services on 127.0.0.1 and talk HTTP to them. */
import { afterEach } from 'vitest';
import { startLocalService, type SimulatedService, type SimulatedServiceOptions } from '../../src/local-service/index';

const running: SimulatedService[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** Starts a service that is closed after the current test; generous limits unless a test sets them. */
export async function serve(options: SimulatedServiceOptions = {}): Promise<SimulatedService> {
  const s = await startLocalService({ rate: 0, rateLimitPerMinute: { keyed: 1_000_000, anonymous: 1_000_000 }, ...options });
  running.push(s);
  return s;
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export async function get(url: string, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export interface Page {
  messages: Record<string, unknown>[];
  nextPageToken?: string;
}

export function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** Follows nextPageToken to the end; returns every record in order and the number of pages. */
export async function walk(
  base: string,
  params: Record<string, string | number | undefined> = {},
  onPage?: (n: number) => Promise<void> | void,
): Promise<{ messages: Record<string, unknown>[]; pages: number }> {
  const messages: Record<string, unknown>[] = [];
  let token: string | undefined;
  let pages = 0;
  do {
    const r = await get(base + query({ ...params, pageToken: token }));
    if (r.status !== 200) throw new Error(`page ${pages} answered ${r.status}: ${r.text}`);
    const page = r.json as Page;
    messages.push(...page.messages);
    token = page.nextPageToken;
    pages++;
    await onPage?.(pages);
  } while (token);
  return { messages, pages };
}

/** The record's sort time: source timestamp, else destination timestamp. */
export function sortTime(m: Record<string, unknown>): number {
  const src = m.sourceTransaction as { timestamp?: number } | undefined;
  const dst = m.destinationTransaction as { timestamp?: number } | undefined;
  return src?.timestamp ?? dst?.timestamp ?? 0;
}
