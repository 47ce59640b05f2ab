/**
 * Issue 31's per-route failed-execution alert end to end: the headless watcher of a route on the local
 * service (threshold 2 per hour in its YAML), messages delivered on the route whose execution failed,
 * the real Prometheus with the deploy rules firing TeleporterWatchRouteFailedExecutions from the
 * exported gauge, and the watcher's Alertmanager channel pushing TeleporterRouteFailedExecutions to a
 * real Alertmanager (one episode, however many cycles it holds); both clear once the failures are more
 * than an hour old.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RelayerEconomics, RouteFailureRow } from '../../src/shared/relayers';
import { waitFor } from '../support/wait-for';
import { ALERTMANAGER, missing, PROMETHEUS } from './engines';
import { alertStack, baseConfig, pollNow, startWatcher, tempDir } from './rig';

const C_CHAIN = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
const BEAM = '2tmrrBo1Lgt1mzzvPSFt73kkQKFas5d1AP88tv9cicwoFp8BSn';

describe.skipIf(missing(PROMETHEUS, ALERTMANAGER))('the failed-execution alert end to end: the real Prometheus and the real Alertmanager', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('fires once when a watched route reaches the threshold of failed executions in the last hour, and clears when they age out', async () => {
    // The world jumps ahead poll by poll, from 2 h back (alertStack.world).
    const { clock, svc, hook, am } = await alertStack.world(cleanups);
    const w = await startWatcher(
      tempDir('tw-failed-am-'),
      baseConfig(svc.url, {
        // No feed and no watched address: the watched route alone has the poller read it.
        watches: [],
        routes: [{ source: 'C-Chain', destination: 'Beam', label: 'c-beam', backlogMinutes: 600 }],
        routeFailedExecutionsPerHour: 2,
        alerts: { channels: [{ type: 'alertmanager', url: am.url, timeoutSeconds: 2 }] },
      }),
      { clock },
    );
    cleanups.push(() => w.close());
    const prom = await alertStack.prometheus(cleanups, w);
    const amFailed = () => am.alerts('TeleporterRouteFailedExecutions');
    const row = async (): Promise<RouteFailureRow> => {
      const r = await w.core.invoke('relayerEconomics', undefined);
      if (!r.ok) throw new Error(r.error.message);
      return (r.value as RelayerEconomics).routeFailures.find((x) => x.label === 'c-beam')!;
    };
    const failedAtHook = (status: string) =>
      hook.bodies.flatMap((b) =>
        ((b.body as { alerts?: { status: string; labels: Record<string, string> }[] }).alerts ?? [])
          .filter((a) => a.status === status && a.labels.alertname === 'TeleporterRouteFailedExecutions')
          .map((a) => a.labels.episode),
      );
    const send = (executed: boolean) => svc.simulator.send({ outcome: 'normal', source: C_CHAIN, destination: BEAM, deliveryDelayMs: 3_000, executed });

    await pollNow(w);
    // One failure and one success: under the threshold of 2.
    const first = send(false);
    send(true);
    await clock.advance(60_000);
    await pollNow(w);
    expect(await row()).toMatchObject({ alert: true, firing: false, hour: { count: 1, messageIds: [first] } });

    // The second failure: the alert fires.
    const second = send(false);
    await clock.advance(60_000);
    await pollNow(w);
    expect(await row()).toMatchObject({ firing: true, hour: { count: 2, messageIds: [second, first] } });
    const scrape = await (await fetch(w.metrics!.url)).text();
    expect(scrape).toContain('teleporter_watch_route_failed_executions{route="c-beam"} 2');
    expect(scrape).toContain('teleporter_watch_route_failed_executions_alert{route="c-beam"} 1');
    const fired = await waitFor(
      async () => {
        const a = await prom.firing('TeleporterWatchRouteFailedExecutions');
        return a.length ? a : false;
      },
      30_000,
      'Prometheus firing TeleporterWatchRouteFailedExecutions',
    );
    expect(fired).toEqual([expect.objectContaining({ route: 'c-beam', severity: 'warning' })]);
    const active = await waitFor(
      async () => {
        const a = (await amFailed()).filter((x) => x.status.state === 'active');
        return a.length ? a : false;
      },
      30_000,
      'Alertmanager holding TeleporterRouteFailedExecutions',
    );
    expect(active).toHaveLength(1);
    expect(active[0]!.labels).toMatchObject({ kind: 'route_failed_executions', network: 'mainnet', severity: 'warning', watch: 'c-beam' });

    // A third failure and another cycle while it holds: still the one episode.
    send(false);
    await clock.advance(60_000);
    await pollNow(w);
    expect(await row()).toMatchObject({ firing: true, hour: { count: 3 } });
    await waitFor(() => failedAtHook('firing').length > 0, 30_000, "the fire at Alertmanager's receiver");
    expect((await amFailed()).filter((x) => x.status.state === 'active')).toHaveLength(1);
    expect(new Set(failedAtHook('firing'))).toEqual(new Set([active[0]!.labels.episode]));

    // An hour on, the failures are out of the window: the rule and the pushed alert clear.
    await clock.advance(61 * 60_000);
    await pollNow(w);
    expect(await row()).toMatchObject({ firing: false, hour: { count: 0 } });
    await waitFor(async () => (await prom.firing('TeleporterWatchRouteFailedExecutions')).length === 0, 30_000, 'Prometheus to stop firing');
    await waitFor(async () => (await amFailed()).every((a) => a.status.state !== 'active'), 30_000, 'Alertmanager to resolve TeleporterRouteFailedExecutions');
    await waitFor(() => failedAtHook('resolved').length > 0, 30_000, "the resolve at Alertmanager's receiver");
    expect(new Set(failedAtHook('resolved'))).toEqual(new Set([active[0]!.labels.episode]));
  }, 90_000);
});
