/**
 * A JSON-RPC proxy in front of a test node that misbehaves on demand, as real providers do: refuses
 * log ranges wider than a limit, is down, rate limits, answers slowly, lies about eth_chainId or says
 * old blocks are pruned. Counts what it was asked.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxyFaults {
  /** eth_getLogs over more blocks than this is refused (a provider's range limit). */
  maxRange?: number;
  /** Every request fails: the connection is dropped. */
  down?: boolean;
  /** Every request gets HTTP 429. */
  rateLimited?: boolean;
  /** Every answer waits this long. */
  delayMs?: number;
  /** eth_chainId answers this instead. */
  chainId?: number;
  /** eth_getLogs from below this block fails as pruned history. */
  prunedBelow?: number;
}

export interface RpcProxy {
  url: string;
  faults: ProxyFaults;
  calls: Map<string, number>;
  refusedRanges: number;
  close(): Promise<void>;
}

interface RpcRequest {
  id: number | string;
  method: string;
  params?: unknown[];
}

const hexNum = (v: unknown) => (typeof v === 'string' && v.startsWith('0x') ? Number(BigInt(v)) : NaN);

export async function startRpcProxy(target: string): Promise<RpcProxy> {
  const proxy: RpcProxy = { url: '', faults: {}, calls: new Map(), refusedRanges: 0, close: async () => undefined };
  const answer = async (req: RpcRequest): Promise<unknown> => {
    proxy.calls.set(req.method, (proxy.calls.get(req.method) ?? 0) + 1);
    const f = proxy.faults;
    if (req.method === 'eth_chainId' && f.chainId !== undefined) return { jsonrpc: '2.0', id: req.id, result: `0x${f.chainId.toString(16)}` };
    if (req.method === 'eth_getLogs') {
      const p = (req.params?.[0] ?? {}) as { fromBlock?: string; toBlock?: string };
      const from = hexNum(p.fromBlock);
      const to = hexNum(p.toBlock);
      if (f.maxRange !== undefined && to - from + 1 > f.maxRange) {
        proxy.refusedRanges++;
        return { jsonrpc: '2.0', id: req.id, error: { code: -32005, message: `block range is too large: limited to ${f.maxRange} blocks` } };
      }
      if (f.prunedBelow !== undefined && from < f.prunedBelow) {
        return { jsonrpc: '2.0', id: req.id, error: { code: -32000, message: 'missing trie node: state is pruned' } };
      }
    }
    const res = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(req) });
    return res.json();
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      void (async () => {
        const f = proxy.faults;
        if (f.down) return void req.socket.destroy();
        if (f.rateLimited) {
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
          return void res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32005, message: 'Too many requests' } }));
        }
        if (f.delayMs) await new Promise((r) => setTimeout(r, f.delayMs));
        try {
          const parsed = JSON.parse(body) as RpcRequest | RpcRequest[];
          const out = Array.isArray(parsed) ? await Promise.all(parsed.map(answer)) : await answer(parsed);
          if (res.destroyed) return;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(out));
        } catch {
          if (!res.destroyed) req.socket.destroy();
        }
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    });
  return proxy;
}
