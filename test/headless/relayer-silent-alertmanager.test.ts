/**
 * Issue 19's end-to-end outage: the headless watcher of a route and its relayers on the local service,
 * the real Prometheus with the deploy rules (unmodified: the thresholds are the watcher's, set small in
 * its YAML) firing RelayerSilent, and the watcher's Alertmanager channel pushing TeleporterRelayerSilent
 * to a real Alertmanager, which shows it active and then receives its resolve.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTeleporterService } from '../../src/local-data-api';
import type { RelayerOverview } from '../../src/shared/relayers';
import { JumpClock } from '../core/http-helpers';
import { waitFor } from '../support/wait-for';
import { ALERTMANAGER, missing, PROMETHEUS, startAlertmanager, startPrometheus } from './engines';
import { baseConfig, pollNow, startReceiver, startWatcher, tempDir } from './rig';

const RULES = join(__dirname, '..', '..', 'deploy', 'rules', 'teleporter-watch.rules.yml');
const C_CHAIN = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
const BEAM = '2tmrrBo1Lgt1mzzvPSFt73kkQKFas5d1AP88tv9cicwoFp8BSn';

interface AmAlert {
  labels: Record<string, string>;
  status: { state: string };
  endsAt: string;
}

/** Alertmanager sends every group to the test's receiver, resolves included. */
const amConfig = (receiverUrl: string) => `route:
  receiver: hook
  group_by: ['alertname', 'episode']
  group_wait: 1s
  group_interval: 1s
  repeat_interval: 24h
receivers:
  - name: hook
    webhook_configs:
      - url: ${receiverUrl}/alerts
        send_resolved: true
`;

describe.skipIf(missing(PROMETHEUS, ALERTMANAGER))('RelayerSilent end to end: the real Prometheus and the real Alertmanager', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('fires on a simulated outage, reaches Alertmanager as TeleporterRelayerSilent, and resolves there once the relayers deliver again', async () => {
    // The world jumps ahead poll by poll; it starts 2 h back so every time the watcher pushes (an
    // episode's start, its resolve's end) is in Alertmanager's past: a resolve then ends the alert at once.
    const clock = new JumpClock(Date.now() - 2 * 3_600_000);
    const svc = await startTeleporterService({ clock, rate: 0, warmStore: false, addressCount: 10 });
    cleanups.push(() => svc.close());
    const hook = await startReceiver();
    cleanups.push(() => hook.close());
    const am = await startAlertmanager(amConfig(hook.url));
    cleanups.push(() => am.stop());
    const label = (address: string) => `r${svc.simulator.relayers.indexOf(address)}`;
    const w = await startWatcher(
      tempDir('tw-relayer-am-'),
      baseConfig(svc.url, {
        // No feed and no watched address: the watched route alone has the poller read it.
        watches: [],
        relayers: svc.simulator.relayers.map((address) => ({ address, label: label(address), silentMinutes: 10, pendingMinutes: 5 })),
        routes: [{ source: 'C-Chain', destination: 'Beam', label: 'c-beam', backlogMinutes: 600 }],
        alerts: { channels: [{ type: 'alertmanager', url: am.url, timeoutSeconds: 2 }] },
      }),
      { clock },
    );
    cleanups.push(() => w.close());
    const prom = await startPrometheus(
      `global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files: ['${RULES}']\nscrape_configs:\n  - job_name: teleporter-watch\n    static_configs:\n      - targets: ['${new URL(w.metrics!.url).host}']\n`,
    );
    cleanups.push(() => prom.stop());
    const promFiring = async () => {
      const r = (await (await fetch(`${prom.url}/api/v1/alerts`)).json()) as { data: { alerts: { labels: Record<string, string>; state: string }[] } };
      return r.data.alerts.filter((a) => a.state === 'firing' && a.labels.alertname === 'RelayerSilent').map((a) => a.labels.relayer ?? '');
    };
    const amSilent = async () =>
      ((await (await fetch(`${am.url}/api/v2/alerts`)).json()) as AmAlert[]).filter((a) => a.labels.alertname === 'TeleporterRelayerSilent');
    const resolvedAtHook = () =>
      hook.bodies.flatMap((b) =>
        ((b.body as { alerts?: { status: string; labels: Record<string, string> }[] }).alerts ?? [])
          .filter((a) => a.status === 'resolved' && a.labels.alertname === 'TeleporterRelayerSilent')
          .map((a) => a.labels.episode),
      );

    await pollNow(w);
    for (let i = 0; i < 4; i++) svc.simulator.send({ outcome: 'normal', source: C_CHAIN, destination: BEAM, deliveryDelayMs: 3_000 });
    // The outage: one message waits 45 min on the route, and nobody delivers anything meanwhile.
    svc.simulator.send({ outcome: 'normal', source: C_CHAIN, destination: BEAM, deliveryDelayMs: 45 * 60_000 });
    await clock.advance(60_000);
    await pollNow(w);
    const overview = await w.core.invoke('relayerOverview', undefined);
    if (!overview.ok) throw new Error(overview.error.message);
    const delivering = (overview.value as RelayerOverview).relayers
      .filter((r) => r.deliveries24h > 0)
      .map((r) => r.label)
      .sort();
    expect(delivering.length).toBeGreaterThan(0);

    // 25 min on: silent 10+ min with a message pending 5+ min on their route.
    await clock.advance(25 * 60_000);
    await pollNow(w);
    await waitFor(async () => JSON.stringify((await promFiring()).sort()) === JSON.stringify(delivering), 30_000, 'Prometheus firing RelayerSilent');
    const active = await waitFor(
      async () => {
        const a = (await amSilent()).filter((x) => x.status.state === 'active');
        return a.length === delivering.length ? a : false;
      },
      30_000,
      'Alertmanager holding TeleporterRelayerSilent',
    );
    expect(active.map((a) => a.labels.watch).sort()).toEqual(delivering);
    expect(active[0]!.labels).toMatchObject({ kind: 'relayer_silent', network: 'mainnet', severity: 'warning' });

    // The late message is delivered: the relayers deliver again, the episodes resolve, and so does Alertmanager.
    await clock.advance(20 * 60_000);
    await pollNow(w);
    await waitFor(async () => (await promFiring()).length === 0, 30_000, 'Prometheus to stop firing');
    await waitFor(async () => (await amSilent()).every((a) => a.status.state !== 'active'), 30_000, 'Alertmanager to resolve TeleporterRelayerSilent');
    await waitFor(() => new Set(resolvedAtHook()).size === delivering.length, 30_000, "the resolves at Alertmanager's receiver");
    expect(new Set(resolvedAtHook())).toEqual(new Set(active.map((a) => a.labels.episode)));
  }, 60_000);
});
