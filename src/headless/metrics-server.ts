/**
 * `/metrics` for Prometheus (and `/healthz`): bound to 127.0.0.1 unless the config says otherwise,
 * with an optional bearer token compared in constant time. Anything else is 404; a failing collect
 * is a 500 with a short message, never a crash.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger, CoreMetrics } from '../core';
import { bearerToken, tokenMatches } from '../web-server/security';
import { metricsHostMatcher } from './metrics-host';
import { limitSlowClients, slowClientServerOptions } from '../shared/slow-clients';

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

export async function startMetricsServer(metrics: CoreMetrics, opts: { host: string; port: number; token?: string; logger?: Logger }): Promise<MetricsServer> {
  // Known once listening (the port may be 0 until then); nothing is served before.
  let hostAllowed: (header: string | undefined) => boolean = () => false;
  const server: Server = createServer(slowClientServerOptions(), (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/healthz') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
      return;
    }
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: metrics are at /metrics.\n');
      return;
    }
    if (!hostAllowed(req.headers.host)) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end("Forbidden: unexpected Host header (use this machine's address or 127.0.0.1).\n");
      return;
    }
    if (opts.token && !tokenMatches(opts.token, bearerToken(req.headers.authorization))) {
      res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end('A bearer token is required.\n');
      return;
    }
    metrics.text().then(
      (body) => res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(body),
      (e: unknown) => {
        opts.logger?.error('metrics collection failed', { error: e });
        res.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics collection failed; see the log.\n');
      },
    );
  });
  limitSlowClients(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  hostAllowed = metricsHostMatcher(opts.host, port);
  const host = opts.host.includes(':') && !opts.host.startsWith('[') ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
