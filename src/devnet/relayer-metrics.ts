/**
 * Relayer-style metrics: the ICM relayer's own Prometheus series, with its names and labels
 * (ava-labs/icm-services `relayer/application_relayer_metrics.go`), on a prom-client registry, served
 * on 127.0.0.1 so the app can read them beside the chains. Two versions of the labels exist:
 * `with-source-subnet` (each series also carries `source_subnet_id`, as up to April 2026, icm-services 4c94bb66c) and `current` (only the two
 * chain IDs; `fetch_signature_app_request_count` added). Chain IDs are cb58, as avalanchego's ids.ID prints them.
 *
 * POST /_inject claims what did not happen (`?delivered=N` or `?failed=N&reason=…`, on the first route
 * or `&source=…&destination=…`): the difference the app's disagreement alert is there to see.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Registry } from 'prom-client';

export type RelayerMetricsVersion = 'with-source-subnet' | 'current';

export interface RelayerRoute {
  /** cb58 blockchain IDs. */
  source: string;
  destination: string;
  /** The source chain's subnet ID (cb58), on the with-source-subnet labels only. */
  sourceSubnet?: string;
}

/** avalanchego's ids.Empty in cb58: the primary network's subnet ID. */
const PRIMARY_NETWORK = '11111111111111111111111111111111LpoYY';

export class RelayerStyleMetrics {
  readonly registry = new Registry();
  private readonly delivered: Counter<string>;
  private readonly failed: Counter<string>;
  private readonly latency: Gauge<string>;
  /** The routes seen so far (the first is where an injection without a route goes). */
  readonly routes: RelayerRoute[] = [];

  constructor(readonly version: RelayerMetricsVersion = 'current') {
    const chainLabels =
      version === 'with-source-subnet' ? ['destination_chain_id', 'source_chain_id', 'source_subnet_id'] : ['destination_chain_id', 'source_chain_id'];
    const registers = [this.registry];
    this.delivered = new Counter({
      name: 'successful_relay_message_count',
      help: 'Number of messages that relayed successfully',
      labelNames: chainLabels,
      registers,
    });
    this.latency = new Gauge({
      name: 'create_signed_message_latency_ms',
      help: 'Latency of creating a signed message in milliseconds',
      labelNames: chainLabels,
      registers,
    });
    this.failed = new Counter({
      name: 'failed_relay_message_count',
      help: 'Number of messages that failed to relay',
      labelNames: [...chainLabels, 'failure_reason'],
      registers,
    });
    if (version === 'current')
      new Counter({
        name: 'fetch_signature_app_request_count',
        help: 'Number of aggregate signatures constructed via AppRequest',
        labelNames: chainLabels,
        registers,
      });
  }

  private labels(r: RelayerRoute): Record<string, string> {
    if (!this.routes.some((x) => x.source === r.source && x.destination === r.destination)) this.routes.push(r);
    const l: Record<string, string> = { destination_chain_id: r.destination, source_chain_id: r.source };
    if (this.version === 'with-source-subnet') l.source_subnet_id = r.sourceSubnet ?? PRIMARY_NETWORK;
    return l;
  }

  relayed(r: RelayerRoute, n = 1): void {
    this.delivered.inc(this.labels(r), n);
  }

  failedToRelay(r: RelayerRoute, reason: string, n = 1): void {
    this.failed.inc({ ...this.labels(r), failure_reason: reason }, n);
  }

  signedIn(r: RelayerRoute, ms: number): void {
    this.latency.set(this.labels(r), ms);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}

export interface RelayerMetricsServer {
  url: string;
  close(): Promise<void>;
}

/** Serves GET /metrics and POST /_inject on 127.0.0.1 (port 0: any free one). */
export async function serveRelayerMetrics(m: RelayerStyleMetrics, port = 0): Promise<RelayerMetricsServer> {
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && u.pathname === '/metrics') {
      void m.text().then((t) => res.writeHead(200, { 'content-type': m.registry.contentType }).end(t));
      return;
    }
    if (req.method === 'POST' && u.pathname === '/_inject') {
      const problem = inject(m, u.searchParams);
      res.writeHead(problem ? 400 : 200, { 'content-type': 'text/plain' }).end(problem ?? 'injected\n');
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** A claim of what did not happen; the problem in words, else null. */
function inject(m: RelayerStyleMetrics, q: URLSearchParams): string | null {
  const source = q.get('source');
  const destination = q.get('destination');
  const route = source && destination ? { source, destination } : m.routes[0];
  if (!route) return 'no route yet: give source= and destination= (cb58 blockchain IDs)\n';
  const n = (k: string) => {
    const v = Number(q.get(k) ?? '0');
    return Number.isInteger(v) && v >= 0 && v <= 1_000_000 ? v : null;
  };
  const delivered = n('delivered');
  const failed = n('failed');
  if (delivered === null || failed === null) return 'delivered= and failed= take a whole number from 0 to 1000000\n';
  if (delivered) m.relayed(route, delivered);
  if (failed) m.failedToRelay(route, (q.get('reason') ?? 'failed to send warp message').slice(0, 200), failed);
  return null;
}
