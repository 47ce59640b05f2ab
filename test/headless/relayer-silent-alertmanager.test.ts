/**
 * Issue 19's end-to-end outage: the headless watcher of a route and its relayers on the local service,
 * the real Prometheus with the deploy rules (unmodified: the thresholds are the watcher's, set small in
 * its YAML) firing RelayerSilent, and the watcher's Alertmanager channel pushing TeleporterRelayerSilent
 * to a real Alertmanager, which shows it active and then receives its resolve.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RelayerOverview } from '../../src/shared/relayers';
import { waitFor } from '../support/wait-for';
import { ALERTMANAGER, missing, PROMETHEUS } from './engines';
import { alertStack, baseConfig, pollNow, startWatcher, tempDir } from './rig';
const C_CHAIN = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
const BEAM = '2tmrrBo1Lgt1mzzvPSFt73kkQKFas5d1AP88tv9cicwoFp8BSn';

describe.skipIf(missing(PROMETHEUS, ALERTMANAGER))('RelayerSilent end to end: the real Prometheus and the real Alertmanager', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('fires on a simulated outage, reaches Alertmanager as TeleporterRelayerSilent, and resolves there once the relayers deliver again', async () => {
    // The world jumps ahead poll by poll, from 2 h back (alertStack.world).
    const { clock, svc, hook, am } = await alertStack.world(cleanups);
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
    const prom = await alertStack.prometheus(cleanups, w);
    const promFiring = async () => (await prom.firing('RelayerSilent')).map((l) => l.relayer ?? '');
    const amSilent = () => am.alerts('TeleporterRelayerSilent');
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
