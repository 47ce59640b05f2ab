import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Forwards every request to `target` and records its full target (path and query): what a cycle asked for. */
export async function recordingProxy(target: string): Promise<{ url: string; targets: string[]; close: () => Promise<void> }> {
  const to = new URL(target);
  const targets: string[] = [];
  const srv = createServer((req, res) => {
    targets.push(req.url ?? '');
    const out = request({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    out.on('error', () => res.writeHead(502).end());
    req.pipe(out);
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, targets, close: () => new Promise((r) => srv.close(() => r())) };
}
