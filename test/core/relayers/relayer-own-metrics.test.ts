/**
 * A relayer's own metrics as the app reads them: an endpoint serving the ICM relayer's real metric
 * names and labels, of both label versions (with and without `source_subnet_id`), over real HTTP;
 * chain IDs in cb58 and in 0x hex; and every answer that is not a relayer's (malformed, huge, slow,
 * refused, an error status) read as a reason, never a throw.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hex } from '@scure/base';
import { afterEach, describe, expect, it } from 'vitest';
import { OwnHistory } from '../../../src/core/relayers/own-history';
import { readMetricsText } from '../../../src/core/relayers/relayer-metrics-read';
import { parseRelayerMetrics, routeKey, type OwnCounters } from '../../../src/core/relayers/relayer-own-metrics';
import { RelayerStyleMetrics, serveRelayerMetrics, type RelayerMetricsVersion } from '../../../src/devnet/relayer-metrics';
import { decodeCb58 } from '../../../src/shared/validators';
import { BEAM, C_CHAIN } from '../helpers';

const LIMITS = { timeoutMs: 1_000, maxBytes: 100_000 };
const hexOf = (cb58: string) => `0x${hex.encode(decodeCb58(cb58)!)}`;

/** A raw server for answers no relayer gives: `handle` writes them. */
async function rawServer(handle: (res: import('node:http').ServerResponse) => void): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_req, res) => handle(res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

async function read(url: string): Promise<OwnCounters> {
  const text = await readMetricsText(url, LIMITS);
  if (!text.ok) throw new Error(text.reason);
  const parsed = parseRelayerMetrics(text.text);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.counters;
}

describe("a relayer's own metrics, read over HTTP", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it.each<RelayerMetricsVersion>(['with-source-subnet', 'current'])(
    'reads the %s labels: per route, its relays, its failures by reason, its latency',
    async (version) => {
      const m = new RelayerStyleMetrics(version);
      const there = { source: C_CHAIN, destination: BEAM };
      const back = { source: BEAM, destination: C_CHAIN };
      m.relayed(there, 7);
      m.relayed(back, 2);
      m.failedToRelay(there, 'failed to send warp message', 3);
      m.failedToRelay(there, 'failed to check if message should be sent');
      m.signedIn(there, 420);
      const s = await serveRelayerMetrics(m);
      cleanups.push(() => s.close());

      // The served text is the relayer's: its names, and each version's labels.
      const text = await (await fetch(s.url)).text();
      expect(text).toContain(`successful_relay_message_count{destination_chain_id="${BEAM}",source_chain_id="${C_CHAIN}"`);
      expect(text.includes('source_subnet_id=')).toBe(version === 'with-source-subnet');
      expect(text.includes('fetch_signature_app_request_count')).toBe(version === 'current');

      const c = await read(s.url);
      expect(c.skipped).toBe(0);
      expect([...c.routes.keys()].sort()).toEqual([routeKey(C_CHAIN, BEAM), routeKey(BEAM, C_CHAIN)].sort());
      const r = c.routes.get(routeKey(C_CHAIN, BEAM))!;
      expect(r).toMatchObject({ sourceChain: C_CHAIN, destinationChain: BEAM, delivered: 7, latencyMs: 420 });
      expect(Object.fromEntries(r.failed)).toEqual({ 'failed to send warp message': 3, 'failed to check if message should be sent': 1 });
      expect(c.routes.get(routeKey(BEAM, C_CHAIN))).toMatchObject({ delivered: 2, latencyMs: null, failed: new Map() });
    },
  );

  it('reads chain IDs in 0x hex as their cb58 IDs, sums series that differ in other labels, and skips what is not a chain ID', async () => {
    const body = [
      '# TYPE successful_relay_message_count counter',
      `successful_relay_message_count{destination_chain_id="${hexOf(BEAM)}",source_chain_id="${hexOf(C_CHAIN)}",source_subnet_id="a"} 4`,
      `successful_relay_message_count{destination_chain_id="${BEAM}",source_chain_id="${C_CHAIN}",source_subnet_id="b"} 1`,
      'successful_relay_message_count{destination_chain_id="not-a-chain",source_chain_id="x"} 9',
      `successful_relay_message_count{destination_chain_id="${BEAM}",source_chain_id="${C_CHAIN}"} NaN`,
      '# TYPE go_goroutines gauge',
      'go_goroutines 12',
      '',
    ].join('\n');
    const s = await rawServer((res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(body));
    cleanups.push(s.close);
    const c = await read(s.url);
    expect(c.routes.get(routeKey(C_CHAIN, BEAM))?.delivered).toBe(5);
    expect(c.routes.size).toBe(1);
    expect(c.skipped).toBe(2);
  });

  it('a relayer that has relayed nothing yet (no series) reads as no routes', async () => {
    const s = await rawServer((res) => res.writeHead(200).end('# HELP go_goroutines x\n# TYPE go_goroutines gauge\ngo_goroutines 3\n'));
    cleanups.push(s.close);
    expect((await read(s.url)).routes.size).toBe(0);
  });

  it('a malformed, huge, slow, refused or failing answer is a reason, not a throw', async () => {
    const html = await rawServer((res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Grafana</body></html>'));
    const broken = await rawServer((res) => res.writeHead(200).end('successful_relay_message_count{source_chain_id="x" 3\n'));
    const huge = await rawServer((res) => {
      res.writeHead(200);
      const line = `successful_relay_message_count{destination_chain_id="${BEAM}",source_chain_id="${C_CHAIN}"} 1\n`;
      // Streamed past the cap: the reader stops reading, it does not wait for the end.
      const write = () => {
        while (res.write(line.repeat(100)));
        if (!res.destroyed) res.once('drain', write);
      };
      write();
    });
    const slow = await rawServer((res) => res.writeHead(200).write('# TYPE a counter\n'));
    const failing = await rawServer((res) => res.writeHead(500).end('oops'));
    for (const s of [html, broken, huge, slow, failing]) cleanups.push(s.close);
    const refused = await rawServer(() => undefined);
    await refused.close();

    const parsedReason = async (url: string) => {
      const t = await readMetricsText(url, LIMITS);
      if (!t.ok) return t.reason;
      const p = parseRelayerMetrics(t.text);
      return p.ok ? 'read' : p.reason;
    };
    expect(await parsedReason(html.url)).toMatch(/^not Prometheus text|holds no Prometheus metrics/);
    expect(await parsedReason(broken.url)).toMatch(/^not Prometheus text \(a line reads "successful_relay_message_count/);
    expect(await parsedReason(huge.url)).toBe('the answer is larger than 100,000 bytes');
    const t0 = Date.now();
    expect(await parsedReason(slow.url)).toBe('no complete answer within 1 s');
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(await parsedReason(failing.url)).toBe('HTTP 500');
    expect(await parsedReason(refused.url)).toMatch(/^connection refused/);
    expect(await parsedReason('file:///etc/passwd')).toMatch(/must start with http/);
    // A cloud machine's metadata service is never read (its answer would show in the reason).
    expect(await parsedReason('http://169.254.169.254/latest/meta-data/')).toMatch(/^Metrics URL points at 169\.254\.169\.254, .*: refused\.$/);
  });
});

describe('counter growth between reads', () => {
  const at = (n: number, delivered: number, failed: Record<string, number> = {}) => ({
    at: n * 60_000,
    counters: {
      skipped: 0,
      routes: new Map([
        [routeKey(C_CHAIN, BEAM), { sourceChain: C_CHAIN, destinationChain: BEAM, delivered, failed: new Map(Object.entries(failed)), latencyMs: null }],
      ]),
    },
  });

  it('is the difference, or the whole value after a restart, over the window from the read before it', () => {
    const h = new OwnHistory();
    const window = 15 * 60_000;
    h.add(at(0, 100), window);
    // One read is a baseline: nothing counted yet.
    expect(h.window(window)).toBeNull();
    h.add(at(2, 104, { x: 1 }), window);
    expect(h.window(window)!.routes.get(routeKey(C_CHAIN, BEAM))).toMatchObject({ delivered: 4, failed: new Map([['x', 1]]) });
    // The relayer restarted: its counters began again from zero (and reason x has not come back yet).
    h.add(at(4, 3), window);
    expect(h.window(window)!.routes.get(routeKey(C_CHAIN, BEAM))).toMatchObject({ delivered: 7, failed: new Map([['x', 1]]) });
    // 20 min later the reads before the window are gone: counted from the last read at or before its start.
    h.add(at(10, 5), window);
    h.add(at(20, 6), window);
    const w = h.window(window)!;
    expect(w).toMatchObject({ from: 4 * 60_000, to: 20 * 60_000 });
    expect(w.routes.get(routeKey(C_CHAIN, BEAM))!.delivered).toBe(3);
    h.add(at(26, 6), window);
    expect(h.window(window)!).toMatchObject({ from: 10 * 60_000 });
    expect(h.window(window)!.routes.get(routeKey(C_CHAIN, BEAM))!.delivered).toBe(1);
  });
});
