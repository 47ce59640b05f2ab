/**
 * Issue 19's end-to-end outage: the headless watcher of a route and its relayers on the local service,
 * the real Prometheus with the deploy rules (unmodified: the thresholds are the watcher's, set small in
 * its YAML) firing RelayerSilent, and the watcher's Alertmanager channel pushing TeleporterRelayerSilent
 * to a real Alertmanager, which shows it active and then receives its resolve.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for';
import { ALERTMANAGER, missing, PROMETHEUS } from './engines';
import { startOutage, startRelayerWatcher } from './relayer-rig';
import { alertStack, pollNow } from './rig';

describe.skipIf(missing(PROMETHEUS, ALERTMANAGER))('RelayerSilent end to end: the real Prometheus and the real Alertmanager', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('fires on a simulated outage, reaches Alertmanager as TeleporterRelayerSilent, and resolves there once the relayers deliver again', async () => {
    // The world jumps ahead poll by poll, from 2 h back (alertStack.world).
    const { clock, svc, hook, am } = await alertStack.world(cleanups);
    // No feed and no watched address: the watched route alone has the poller read it.
    const w = await startRelayerWatcher(svc, clock, cleanups, {
      dirPrefix: 'tw-relayer-am-',
      backlogMinutes: 600,
      extra: { alerts: { channels: [{ type: 'alertmanager', url: am.url, timeoutSeconds: 2 }] } },
    });
    const prom = await alertStack.prometheus(cleanups, w);
    const promFiring = async () => (await prom.firing('RelayerSilent')).map((l) => l.relayer ?? '');
    const amSilent = () => am.alerts('TeleporterRelayerSilent');
    const resolvedAtHook = () =>
      hook.bodies.flatMap((b) =>
        ((b.body as { alerts?: { status: string; labels: Record<string, string> }[] }).alerts ?? [])
          .filter((a) => a.status === 'resolved' && a.labels.alertname === 'TeleporterRelayerSilent')
          .map((a) => a.labels.episode),
      );

    const delivering = await startOutage(svc, clock, w);
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
