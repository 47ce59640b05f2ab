import type { Pool } from 'undici';
import { listTime } from './transition-tracker';

/** What one walk down a list cost, and whether the service refused a page (429: over the plan's quota). */
export interface Walk {
  requests: number;
  refused: boolean;
}

/**
 * Reads one list operation from its head, page by page (100 records each), until a page holds only
 * records older than `oldest` (ms) or the list ends. The list is only roughly in time order, so a page
 * ends the walk only when every record on it is older. A refused page (429) ends the walk: a simple
 * poller reads again next interval. `key`: its own API key (its own quota at the service); `filter`: the
 * list's query filters (a route's source and destination chains).
 */
export async function walkPages(
  pool: Pool,
  path: string,
  oldest: number,
  each: (r: Record<string, unknown>) => void,
  key?: string,
  filter: Record<string, string> = {},
): Promise<Walk> {
  let requests = 0;
  let token: string | undefined;
  const headers = key ? { 'x-glacier-api-key': key } : undefined;
  for (;;) {
    const q = new URLSearchParams({ pageSize: '100', network: 'mainnet', ...filter, ...(token ? { pageToken: token } : {}) });
    const res = await pool.request({ path: `${path}?${q.toString()}`, method: 'GET', ...(headers ? { headers } : {}) });
    requests++;
    if (res.statusCode === 429) {
      await res.body.dump();
      return { requests, refused: true };
    }
    if (res.statusCode !== 200) throw new Error(`${path}: HTTP ${res.statusCode} ${await res.body.text()}`);
    const page = (await res.body.json()) as { messages: Record<string, unknown>[]; nextPageToken?: string };
    page.messages.forEach(each);
    token = page.nextPageToken;
    if (!token || page.messages.every((r) => listTime(r) < oldest)) return { requests, refused: false };
  }
}
