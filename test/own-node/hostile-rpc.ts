/**
 * A hostile JSON-RPC server in front of a real test node: forwards every request, and on demand
 * answers as a broken or lying node does (not JSON, oversized, endless, trickling, another request's
 * id, another chain ID, a negative head), slips garbage logs in among the real ones, or (`rewrite`)
 * answers whatever a test makes of the node's result (the fuzz tests' arbitrary answers).
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type HostileMode =
  | 'honest'
  /** An HTML error page with status 200. */
  | 'not_json'
  /** 20 MB of valid JSON, at once. */
  | 'oversized'
  /** A body that never ends, written as fast as the client reads. */
  | 'endless'
  /** Headers, then one byte every 200 ms, forever. */
  | 'trickling'
  /** Every reply carries another request's id. */
  | 'wrong_id'
  /** eth_chainId answers another chain. */
  | 'other_chain'
  /** eth_blockNumber answers "-0x5". */
  | 'negative_head'
  /** eth_getLogs answers the real logs and garbage logs around them. */
  | 'garbage_logs';

export interface HostileRpc {
  url: string;
  mode: HostileMode;
  /** Garbage logs served so far, by the reason the indexer should give. */
  garbageServed: Map<string, number>;
  /** In honest mode, what to answer instead of the node's result (the fuzz tests' arbitrary answers); null: the node's. */
  rewrite: ((method: string, params: unknown[], result: unknown) => unknown) | null;
  close(): Promise<void>;
}

interface RpcRequest {
  id: number | string;
  method: string;
  params?: unknown[];
}

const hex32 = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

/** Garbage copies of a real log, one per reason the indexer names. */
function garbageFrom(real: Record<string, unknown>): [string, unknown][] {
  return [
    ['bad_hex', { ...real, blockNumber: '0xZZ' }],
    ['negative_number', { ...real, logIndex: '-0x5' }],
    ['missing_field', { ...real, transactionHash: null }],
    ['missing_field', null],
    ['wrong_topic_count', { ...real, topics: [...(real.topics as string[]), hex32(7), hex32(8)].slice(0, 4) }],
    ['oversized_data', { ...real, data: `0x${'ab'.repeat(1024 * 1024 + 1)}` }],
    ['undecodable', { ...real, data: '0x1234' }],
    ['not_asked_for', { ...real, blockNumber: '0xffffff' }],
  ];
}

export async function startHostileRpc(target: string): Promise<HostileRpc> {
  const rpc: HostileRpc = { url: '', mode: 'honest', garbageServed: new Map(), rewrite: null, close: async () => undefined };
  const forward = async (req: RpcRequest): Promise<{ id: unknown; result?: unknown; error?: unknown }> => {
    const res = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(req) });
    return (await res.json()) as { id: unknown; result?: unknown };
  };
  const answer = async (req: RpcRequest): Promise<unknown> => {
    const m = rpc.mode;
    if (m === 'other_chain' && req.method === 'eth_chainId') return { jsonrpc: '2.0', id: req.id, result: '0x1' };
    if (m === 'negative_head' && req.method === 'eth_blockNumber') return { jsonrpc: '2.0', id: req.id, result: '-0x5' };
    const out = await forward(req);
    if (m === 'honest' && rpc.rewrite && 'result' in out) return { ...out, result: rpc.rewrite(req.method, req.params ?? [], out.result) };
    if (m === 'wrong_id') return { ...out, id: typeof req.id === 'number' ? req.id + 1000 : `${req.id}x` };
    if (m === 'garbage_logs' && req.method === 'eth_getLogs' && Array.isArray(out.result) && out.result.length) {
      const extra: unknown[] = [];
      for (const [reason, log] of garbageFrom(out.result[0] as Record<string, unknown>)) {
        rpc.garbageServed.set(reason, (rpc.garbageServed.get(reason) ?? 0) + 1);
        extra.push(log);
      }
      return { ...out, result: [...extra, ...(out.result as unknown[])] };
    }
    return out;
  };
  const stream = (res: ServerResponse, chunk: string, everyMs: number) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"jsonrpc":"2.0","id":1,"result":"');
    let timer: NodeJS.Timeout | null = null;
    const more = () => {
      timer = null;
      if (res.destroyed) return;
      // Fast: write until the socket's buffer is full, then wait for it to drain (never buffer here).
      if (everyMs === 0) return void (res.write(chunk) ? setImmediate(more) : res.once('drain', more));
      res.write(chunk);
      timer = setTimeout(more, everyMs);
    };
    res.on('close', () => timer && clearTimeout(timer));
    more();
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      void (async () => {
        const m = rpc.mode;
        if (m === 'not_json') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>502 Bad Gateway</body></html>');
        if (m === 'endless') return stream(res, 'ab'.repeat(32 * 1024), 0);
        if (m === 'trickling') return stream(res, 'a', 200);
        try {
          const parsed = JSON.parse(body) as RpcRequest | RpcRequest[];
          if (m === 'oversized') {
            const id = Array.isArray(parsed) ? parsed[0]?.id : parsed.id;
            return void res
              .writeHead(200, { 'content-type': 'application/json' })
              .end(JSON.stringify({ jsonrpc: '2.0', id, result: '0x' + 'ab'.repeat(10 * 1024 * 1024) }));
          }
          const out = Array.isArray(parsed) ? await Promise.all(parsed.map(answer)) : await answer(parsed);
          if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
        } catch {
          if (!res.destroyed) req.socket.destroy();
        }
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  rpc.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  rpc.close = () =>
    new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    });
  return rpc;
}
