/**
 * A Data API of the test's own on 127.0.0.1, serving whatever records the test puts in it (a poisoned
 * record, the fuzz tests' garbage) beside good ones: the list, an address's list and a message by ID,
 * under both path families, newest first, in pages with offset tokens. Each entry says where it sorts
 * and which address lists it, so a record can be garbage through and through and still be served.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Served {
  /** What the server sends for this record: any JSON value. */
  body: unknown;
  /** Where it sorts (s; newest first). */
  sortTs: number;
  /** The addresses whose list holds it (lower case). */
  owners: readonly string[];
}

export interface ScriptedDataApi {
  url: string;
  /** The records served, in any order (sorted per request). */
  records: Served[];
  /** Requests answered so far. */
  requests: number;
  close(): Promise<void>;
}

const PATH = /^\/v1\/(?:icm|teleporter)\/(?:addresses\/([^/]+)\/messages|messages(?:\/([^/]+))?)$/;

function idOf(body: unknown): string | null {
  const id = (body as { messageId?: unknown } | null)?.messageId;
  return typeof id === 'string' ? id.replace(/^0x/, '').toLowerCase() : null;
}

export async function scriptedDataApi(): Promise<ScriptedDataApi> {
  const api: ScriptedDataApi = { url: '', records: [], requests: 0, close: async () => undefined };
  const server = createServer((req, res) => {
    api.requests++;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const m = PATH.exec(url.pathname);
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (!m) return send(404, { message: 'Not found', statusCode: 404 });
    const [, address, messageId] = m;
    if (messageId !== undefined) {
      const want = decodeURIComponent(messageId).replace(/^0x/, '').toLowerCase();
      const hit = api.records.find((r) => idOf(r.body) === want);
      return hit ? send(200, hit.body) : send(404, { message: `No message ${want}`, statusCode: 404 });
    }
    const owner = address === undefined ? null : decodeURIComponent(address).toLowerCase();
    const listed = api.records.filter((r) => owner === null || r.owners.includes(owner)).sort((x, y) => y.sortTs - x.sortTs);
    const size = Math.min(100, Math.max(1, Number(url.searchParams.get('pageSize') ?? 10) || 10));
    const from = Number(url.searchParams.get('pageToken') ?? 0) || 0;
    const page = listed.slice(from, from + size);
    send(200, { messages: page.map((r) => r.body), ...(from + size < listed.length ? { nextPageToken: String(from + size) } : {}) });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  api.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return api;
}
