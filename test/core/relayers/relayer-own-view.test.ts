/**
 * The relayer's own view beside the chains' on the real core (real SQLite), reading the local service,
 * with a relayer-metrics endpoint serving the ICM relayer's real names and labels over real HTTP: an
 * honest relayer agrees with the chains; an injected claim of deliveries the chains do not show fires
 * once and clears once after the window; failures with one reason climbing do too; a malformed, slow
 * or huge answer is "not read" (its episodes held), and the monitor keeps polling.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { coreOnService } from '../core-on-service';
import { startLocalService } from '../../../src/local-service';
import { RelayerStyleMetrics } from '../../../src/devnet/relayer-metrics';
import type { ActivityPage, NotificationPayload, PollStatus } from '../../../src/shared/contract';
import type { RelayerOwnRow, RelayerOwnView } from '../../../src/shared/relayer-own-view';
import { BEAM, C_CHAIN } from '../helpers';
import { JumpClock } from '../http-helpers';

const OURS = '0x1111111111111111111111111111111111111111';
const MIN = 60_000;
const ROUTE = { source: C_CHAIN, destination: BEAM };

type Mode = 'ok' | 'malformed' | 'slow' | 'huge';

/** The relayer's metrics endpoint, switchable to answers no relayer gives. */
async function relayerEndpoint(m: RelayerStyleMetrics): Promise<{ url: string; mode: Mode; close: () => Promise<void> }> {
  const ep = { url: '', mode: 'ok' as Mode, close: async () => undefined as void };
  const server: Server = createServer((_req, res) => {
    if (ep.mode === 'malformed') return void res.writeHead(200).end('successful_relay_message_count{source_chain_id="x" 3\n');
    if (ep.mode === 'slow') return void res.writeHead(200).write('# TYPE successful_relay_message_count counter\n');
    if (ep.mode === 'huge') return void res.writeHead(200).end('#'.repeat(300_000));
    void m.text().then((t) => res.writeHead(200, { 'content-type': m.registry.contentType }).end(t));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  ep.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
  ep.close = () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r())));
  return ep;
}

describe("the relayer's own metrics beside the chains' on the real core", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('agrees while honest; an injected claim and a climbing failure reason each fire once and clear once; a bad answer is "not read" and polling goes on', async () => {
    const clock = new JumpClock(Date.UTC(2026, 0, 1, 12));
    // One relayer delivers every message: what the chains show for it is every delivery on the route.
    const svc = await startLocalService({
      clock,
      rate: 0,
      warmStore: false,
      addressCount: 10,
      relayers: { relayers: [{ name: 'Only', behaviour: 'steady', share: 1, address: OURS }] },
    });
    cleanups.push(() => svc.close());
    const core = await coreOnService(svc.url, clock, cleanups, { relayerMetrics: { timeoutMs: 500, maxBytes: 100_000 } });
    const notified: NotificationPayload[] = [];
    core.attachNotifier((n) => void notified.push(n));
    // This part's episodes (the made-up relayer's wallet also runs low: the fuel alert is another part's).
    const OWN_VIEW = /^(Relayer claims|Relays failing|Relay failures back|Relayer's and chains')/;
    const shown = { filter: (f: (n: NotificationPayload) => boolean) => notified.filter((n) => OWN_VIEW.test(n.title)).filter(f) };
    const call = async <T>(method: string, input?: unknown): Promise<T> => {
      const r = await core.invoke(method, input);
      if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
      return r.value as T;
    };
    const ours = async (): Promise<RelayerOwnRow> => (await call<RelayerOwnView>('relayerOwnView')).relayers.find((r) => r.address === OURS)!;
    const cycle = async (minutes = 1) => {
      await clock.advance(minutes * MIN);
      return call<PollStatus>('pollNow');
    };
    const send = (n: number) => {
      for (let i = 0; i < n; i++) svc.simulator.send({ outcome: 'normal', ...ROUTE, deliveryDelayMs: 3_000, executed: true });
    };

    const metrics = new RelayerStyleMetrics('current');
    const ep = await relayerEndpoint(metrics);
    cleanups.push(() => ep.close());
    await call('addRoute', { source: 'C-Chain', destination: 'Beam', label: 'c-to-beam', backlogMinutes: 600 });
    await call('addRelayer', { address: OURS, label: 'ours', silentMinutes: 600, pendingMinutes: 600 });
    expect((await ours()).state).toBe('off');
    // A URL for an address not watched is refused at its field; a non-http one by the contract.
    const refused = await core.invoke('setRelayerMetricsUrl', { address: '0x2222222222222222222222222222222222222222', url: ep.url });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'not_found', field: 'address' } });
    expect(await core.invoke('setRelayerMetricsUrl', { address: OURS, url: 'file:///etc/passwd' })).toMatchObject({ ok: false, error: { field: 'url' } });
    expect(await core.invoke('setRelayerMetricsUrl', { address: OURS, url: 'http://169.254.169.254/metrics' })).toMatchObject({
      ok: false,
      error: { field: 'url', message: expect.stringMatching(/^Metrics URL points at 169\.254\.169\.254, .*: refused/) },
    });
    await call('setRelayerMetricsUrl', { address: OURS, url: ep.url });
    expect(await ours()).toMatchObject({ state: 'waiting', metricsUrl: ep.url });
    // The first read is a baseline: what it counted before (it has run for a while) is not this window's.
    metrics.relayed(ROUTE, 40);
    await call('pollNow');
    expect(await ours()).toMatchObject({ state: 'baseline', notRead: null, routes: [] });

    // Honest: it counts exactly what it delivered.
    send(4);
    await cycle();
    metrics.relayed(ROUTE, 4);
    await cycle();
    const honest = await ours();
    expect(honest).toMatchObject({ state: 'read', warnings: [] });
    expect(honest.routes).toEqual([
      expect.objectContaining({ routeName: 'C-Chain → Beam', watched: true, relayerDelivered: 4, chainDelivered: 4, disagreement: null }),
    ]);

    // Injected: it claims 5 deliveries no chain shows (and 6 failures for want of gas).
    send(2);
    await cycle();
    metrics.relayed(ROUTE, 2 + 5);
    metrics.failedToRelay(ROUTE, 'insufficient funds', 6);
    await cycle();
    const claimed = await ours();
    expect(claimed.routes[0]).toMatchObject({
      relayerDelivered: 11,
      chainDelivered: 6,
      relayerFailed: 6,
      failures: [{ reason: 'insufficient funds', count: 6 }],
    });
    expect(claimed.routes[0]!.disagreement).toMatch(
      /^the relayer says it delivered 11 messages C-Chain → Beam in the last 4 min; the chains show 6 \(alerts at 3 or more unseen\)$/,
    );
    const fired = shown.filter((n) => n.transitionIds.length === 0);
    expect(fired.map((n) => n.title).sort()).toEqual([
      "Relayer claims deliveries the chains don't show: ours: C-Chain → Beam",
      "Relays failing: ours: 'insufficient funds'",
    ]);
    expect(fired.find((n) => n.title.startsWith('Relays'))!.body).toMatch(
      /^6 relays failed with reason 'insufficient funds' in the last 4 min \(C-Chain → Beam 6; alerts at 5\)/,
    );

    // The endpoint answers badly: "not read", its episodes held (no resolve however long), polling on.
    for (const mode of ['malformed', 'slow', 'huge'] as const) {
      ep.mode = mode;
      const status = await cycle(2);
      // The poll cycle went on and read the source as before.
      expect(status).toMatchObject({ lastError: null, lastSuccessAt: clock.now() });
      const row = await ours();
      expect(row.state).toBe('not_read');
      expect(row.notRead).toMatch(
        mode === 'malformed'
          ? /^relayer metrics not read: not Prometheus text/
          : mode === 'slow'
            ? /^relayer metrics not read: no complete answer within 0.5 s/
            : /^relayer metrics not read: the answer is larger than 100,000 bytes/,
      );
    }
    await cycle(16);
    expect(shown.filter((n) => n.transitionIds.length === 0)).toHaveLength(2);
    const activity = async () =>
      (await call<ActivityPage>('listActivity', { alertKinds: ['relayer_claims_unseen', 'relayer_failures'] })).items.flatMap((i) =>
        i.kind === 'alert' ? [`${i.episodeKind} ${i.phase}`] : [],
      );
    expect((await activity()).sort()).toEqual(['relayer_claims_unseen fire', 'relayer_failures fire']);

    // Read again with nothing new claimed: both resolve once, with the figures now.
    ep.mode = 'ok';
    await cycle(2);
    await cycle(2);
    expect((await ours()).state).toBe('read');
    const after = shown.filter((n) => n.transitionIds.length === 0);
    expect(
      after
        .map((n) => n.title)
        .slice(2)
        .sort(),
    ).toEqual(["Relay failures back under the threshold: ours: 'insufficient funds'", "Relayer's and chains' counts agree again: ours: C-Chain → Beam"]);
    expect(after.find((n) => n.title.startsWith("Relayer's"))!.body).toMatch(
      /^On C-Chain → Beam the relayer says 0 delivered and the chains show 0 in the last \d+ min/,
    );
    await cycle(2);
    expect(shown.filter((n) => n.transitionIds.length === 0)).toHaveLength(4);
    expect((await activity()).sort()).toEqual([
      'relayer_claims_unseen fire',
      'relayer_claims_unseen resolve',
      'relayer_failures fire',
      'relayer_failures resolve',
    ]);
  }, 60_000);
});
