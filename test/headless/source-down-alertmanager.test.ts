/**
 * Not seeing is never news about relayers, end to end (issue 41): the headless watcher of a route and its
 * relayers on the local service fires RelayerSilent on a real outage; then the service stops answering.
 * The watcher's `teleporter_watch_source_up` drops to 0, the deploy rules fire TeleporterWatchSourceDown,
 * the watcher pushes TeleporterSourceDown, and the real Alertmanager running deploy/alertmanager.yml (its
 * inhibit_rules as shipped) suppresses the relayer alerts of both paths while the source is down; once
 * the source is read again the source alerts end.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for';
import { ALERTMANAGER, missing, PROMETHEUS, startAlertmanager, startPrometheus } from './engines';
import { startOutage, startRelayerWatcher } from './relayer-rig';
import { pollNow, RULES, startReceiver, type AmAlert } from './rig';
import { JumpClock } from '../core/http-helpers';
import { startLocalService } from '../../src/local-service';
import { SOURCE_DOWN_AFTER_MS } from '../../src/shared/policy';

const DEPLOY_AM = join(__dirname, '..', '..', 'deploy', 'alertmanager.yml');

interface AmAlertWithStatus extends AmAlert {
  status: { state: string; inhibitedBy: string[] };
}

describe.skipIf(missing(PROMETHEUS, ALERTMANAGER))('source down, end to end: the deploy rules and the example Alertmanager inhibit the relayer alerts', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('holds the relayer alerts while the source cannot be read, in the watcher and in Alertmanager', async () => {
    const clock = new JumpClock(Date.now() - 2 * 3_600_000);
    const svc = await startLocalService({ clock, rate: 0, warmStore: false, addressCount: 10 });
    cleanups.push(() => svc.close());
    const hook = await startReceiver();
    cleanups.push(() => hook.close());
    // The example config as shipped, its on-call webhook pointed at the test's receiver.
    const am = await startAlertmanager(readFileSync(DEPLOY_AM, 'utf8').replace('http://127.0.0.1:5001/alerts', `${hook.url}/alerts`));
    cleanups.push(() => am.stop());
    const amAlerts = async (alertname: string) =>
      ((await (await fetch(`${am.url}/api/v2/alerts`)).json()) as AmAlertWithStatus[]).filter((a) => a.labels.alertname === alertname);

    const w = await startRelayerWatcher(svc, clock, cleanups, {
      dirPrefix: 'tw-source-down-',
      backlogMinutes: 600,
      extra: { alerts: { channels: [{ type: 'alertmanager', url: am.url, timeoutSeconds: 2 }] } },
    });
    // Prometheus with the deploy rules, sending what fires to the same Alertmanager.
    const prom = await startPrometheus(
      `global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files: ['${RULES}']\nalerting:\n  alertmanagers:\n    - static_configs:\n        - targets: ['${new URL(am.url).host}']\nscrape_configs:\n  - job_name: teleporter-watch\n    static_configs:\n      - targets: ['${new URL(w.metrics!.url).host}']\n`,
    );
    cleanups.push(() => prom.stop());
    // The watcher's config names the service by its URL: a custom source, titled by its host.
    const source = new URL(svc.url).host;
    const metric = async (name: string) => (await (await fetch(w.metrics!.url)).text()).split('\n').find((l) => l.startsWith(name)) ?? '';

    // A real outage first: the relayers' silence fires (Prometheus' rule and the watcher's push).
    const delivering = await startOutage(svc, clock, w);
    expect(delivering.length).toBeGreaterThan(0);
    await clock.advance(25 * 60_000);
    await pollNow(w);
    await waitFor(
      async () => (await amAlerts('TeleporterRelayerSilent')).filter((a) => a.status.state === 'active').length === delivering.length,
      30_000,
      'pushed TeleporterRelayerSilent active',
    );
    await waitFor(async () => (await amAlerts('RelayerSilent')).some((a) => a.status.state === 'active'), 30_000, "Prometheus' RelayerSilent active");
    expect(await metric('teleporter_watch_source_up{')).toBe(`teleporter_watch_source_up{source="${source}"} 1`);

    // The source stops answering. Short failures are retried; past SOURCE_DOWN_AFTER_MS it is down.
    svc.setFaults('5xx:1');
    await pollNow(w).catch(() => undefined);
    await clock.advance(SOURCE_DOWN_AFTER_MS + 30_000);
    await pollNow(w).catch(() => undefined);
    expect(await metric('teleporter_watch_source_up{')).toBe(`teleporter_watch_source_up{source="${source}"} 0`);
    const pushed = await waitFor(
      async () => (await amAlerts('TeleporterSourceDown')).find((a) => a.status.state === 'active') ?? false,
      30_000,
      'pushed TeleporterSourceDown active',
    );
    expect(pushed.labels).toMatchObject({ kind: 'source_down', source, severity: 'warning' });
    await waitFor(
      async () => (await amAlerts('TeleporterWatchSourceDown')).some((a) => a.status.state === 'active'),
      30_000,
      'TeleporterWatchSourceDown active',
    );
    // Both paths' relayer alerts are suppressed by the source's alert (inhibit_rules), none resolved by blindness.
    await waitFor(
      async () => {
        const silent = [...(await amAlerts('TeleporterRelayerSilent')), ...(await amAlerts('RelayerSilent'))];
        return silent.length > 0 && silent.every((a) => a.status.state === 'suppressed' && a.status.inhibitedBy.length > 0);
      },
      30_000,
      'the relayer alerts inhibited while the source is down',
    );
    expect((await amAlerts('TeleporterRelayerSilent')).length).toBe(delivering.length);

    // Read again: the source alerts end (the watcher's resolve, Prometheus' rule no longer firing).
    svc.setFaults(null);
    await clock.advance(60_000);
    await pollNow(w);
    expect(await metric('teleporter_watch_source_up{')).toBe(`teleporter_watch_source_up{source="${source}"} 1`);
    await waitFor(async () => (await amAlerts('TeleporterSourceDown')).every((a) => a.status.state !== 'active'), 30_000, 'TeleporterSourceDown resolved');
  }, 120_000);
});
