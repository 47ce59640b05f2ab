/**
 * The relayer's own view end to end, headless: a watcher whose config names the relayer's metrics URL
 * (an endpoint serving the ICM relayer's names and labels), its /metrics exposing the relayer's own
 * counts beside the chains', and a claimed difference pushed to a real Alertmanager as
 * TeleporterRelayerClaimsUnseen, once, then resolved once the claim is out of the window. The alert
 * gauges the deploy rules read follow the core's episodes: 1 from the fire, still 1 while the relayer
 * is not read (held, however long), 0 at the resolve.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalService } from '../../src/local-service';
import { RelayerStyleMetrics, serveRelayerMetrics } from '../../src/devnet/relayer-metrics';
import { JumpClock } from '../core/http-helpers';
import { waitFor } from '../support/wait-for';
import { ALERTMANAGER, missing } from './engines';
import { alertStack, baseConfig, pollNow, startReceiver, startWatcher, tempDir } from './rig';

const C_CHAIN = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
const BEAM = '2tmrrBo1Lgt1mzzvPSFt73kkQKFas5d1AP88tv9cicwoFp8BSn';
const OURS = '0x1111111111111111111111111111111111111111';
// With a colon, as the relayer's reasons often have: the episode key holds it whole.
const REASON = 'failed to send warp message: nonce too low';
const CLAIMS_ALERT = 'teleporter_watch_relayer_claims_unseen_alert{relayer="ours",route="C-Chain → Beam"}';
const FAILURES_ALERT = `teleporter_watch_relayer_failures_alert{relayer="ours",reason="${REASON}"}`;

describe.skipIf(missing(ALERTMANAGER))("the relayer's own metrics headless: Prometheus series and the real Alertmanager", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('exports its counts beside the chains, pushes the claimed difference once and resolves it after the window', async () => {
    // 2 h back: every push (a start, a resolve) is in Alertmanager's past, so a resolve ends the alert at once.
    const clock = new JumpClock(Date.now() - 2 * 3_600_000);
    const svc = await startLocalService({
      clock,
      rate: 0,
      warmStore: false,
      addressCount: 10,
      relayers: { relayers: [{ name: 'Only', behaviour: 'steady', share: 1, address: OURS }] },
    });
    cleanups.push(() => svc.close());
    const hook = await startReceiver();
    cleanups.push(() => hook.close());
    const am = await alertStack.alertmanager(cleanups, hook.url);
    const own = new RelayerStyleMetrics('with-source-subnet');
    const ep = await serveRelayerMetrics(own);
    cleanups.push(() => ep.close());
    const route = { source: C_CHAIN, destination: BEAM };

    const w = await startWatcher(
      tempDir('tw-own-view-am-'),
      baseConfig(svc.url, {
        watches: [],
        routes: [{ source: 'C-Chain', destination: 'Beam', backlogMinutes: 600 }],
        relayers: [{ address: OURS, label: 'ours', silentMinutes: 600, metricsUrl: ep.url }],
        alerts: { channels: [{ type: 'alertmanager', url: am.url, timeoutSeconds: 2 }] },
      }),
      { clock },
    );
    cleanups.push(() => w.close());
    const scrape = async () => (await fetch(w.metrics!.url)).text();
    const cycle = async () => {
      await clock.advance(2 * 60_000);
      await pollNow(w);
    };
    const claims = () => am.alerts('TeleporterRelayerClaimsUnseen');

    await pollNow(w); // the baseline read
    for (let i = 0; i < 2; i++) svc.simulator.send({ outcome: 'normal', ...route, deliveryDelayMs: 3_000, executed: true });
    // It relayed those 2, and (injected over HTTP, as the devnet's /_inject does) claims 5 more and 6 failures with one reason.
    own.relayed(route, 2);
    const inject = (q: string) => fetch(ep.url.replace(/\/metrics$/, `/_inject?${q}`), { method: 'POST' });
    expect((await inject('delivered=5')).status).toBe(200);
    expect((await inject(`failed=6&reason=${encodeURIComponent(REASON)}`)).status).toBe(200);
    await cycle();

    const m = await scrape();
    expect(m).toContain('teleporter_watch_relayer_own_metrics_read{relayer="ours"} 1');
    expect(m).toContain('teleporter_watch_relayer_own_delivered{relayer="ours",route="C-Chain → Beam"} 7');
    expect(m).toContain('teleporter_watch_relayer_chain_delivered{relayer="ours",route="C-Chain → Beam"} 2');
    expect(m).toContain(`${CLAIMS_ALERT} 1`);
    expect(m).toContain(`${FAILURES_ALERT} 1`);
    const active = await waitFor(
      async () => {
        const a = (await claims()).filter((x) => x.status.state === 'active');
        return a.length ? a : false;
      },
      30_000,
      'Alertmanager holding TeleporterRelayerClaimsUnseen',
    );
    expect(active).toHaveLength(1);
    expect(active[0]!.labels).toMatchObject({ kind: 'relayer_claims_unseen', severity: 'warning', network: 'mainnet' });

    // Its metrics not read (the endpoint gone) past the window: not news, both alerts held open, and the gauges say so.
    await ep.close();
    for (let i = 0; i < 9; i++) await cycle();
    const held = await scrape();
    expect(held).toContain('teleporter_watch_relayer_own_metrics_read{relayer="ours"} 0');
    expect(held).toContain(`${CLAIMS_ALERT} 1`);
    expect(held).toContain(`${FAILURES_ALERT} 1`);

    // Read again with nothing more claimed: the claim and the failures are older than the window (15 min), both resolve.
    const back = await serveRelayerMetrics(own, Number(new URL(ep.url).port));
    cleanups.push(() => back.close());
    await cycle();
    const after = await scrape();
    expect(after).toContain('teleporter_watch_relayer_own_metrics_read{relayer="ours"} 1');
    expect(after).toContain('teleporter_watch_relayer_own_delivered{relayer="ours",route="C-Chain → Beam"} 0');
    expect(after).toContain(`${CLAIMS_ALERT} 0`);
    expect(after).toContain(`${FAILURES_ALERT} 0`);
    await waitFor(async () => (await claims()).every((a) => a.status.state !== 'active'), 30_000, 'Alertmanager to resolve TeleporterRelayerClaimsUnseen');
    const episodes = (status: string) =>
      hook.bodies.flatMap((b) =>
        ((b.body as { alerts?: { status: string; labels: Record<string, string> }[] }).alerts ?? [])
          .filter((a) => a.status === status && a.labels.alertname === 'TeleporterRelayerClaimsUnseen')
          .map((a) => a.labels.episode),
      );
    await waitFor(() => episodes('resolved').length > 0, 30_000, "the resolve at Alertmanager's receiver");
    expect(new Set(episodes('resolved'))).toEqual(new Set([active[0]!.labels.episode]));
  }, 90_000);
});
