import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTeleporterService } from '../../src/local-data-api';
import type { RelayerOverview } from '../../src/shared/relayers';
import { JumpClock } from '../core/http-helpers';
import { waitFor } from '../support/wait-for';
import { missing, PROMETHEUS, startPrometheus } from './engines';
import { baseConfig, pollNow, startWatcher, tempDir } from './rig';

const RULES = join(__dirname, '..', '..', 'deploy', 'rules', 'teleporter-watch.rules.yml');
const C_CHAIN = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
const BEAM = '2tmrrBo1Lgt1mzzvPSFt73kkQKFas5d1AP88tv9cicwoFp8BSn';

interface Alert {
  labels: Record<string, string>;
  state: string;
}

describe.skipIf(missing(PROMETHEUS))('the real Prometheus with the deploy rules and a headless watcher of relayers', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('fires RelayerSilent and RouteBacklog on a simulated outage and clears both once the message is delivered', async () => {
    // The watcher's world moves on a jump clock (poll by poll); Prometheus reads the conditions it exports.
    const clock = new JumpClock(Date.now());
    const svc = await startTeleporterService({ clock, rate: 0, warmStore: false, addressCount: 10 });
    cleanups.push(() => svc.close());
    const label = (address: string) => `r${svc.simulator.relayers.indexOf(address)}`;
    const w = await startWatcher(
      tempDir('tw-prom-relayers-'),
      baseConfig(svc.url, {
        watches: [],
        feeds: [],
        relayers: svc.simulator.relayers.map((address) => ({ address, label: label(address), silentMinutes: 10, pendingMinutes: 5 })),
        routes: [{ source: 'C-Chain', destination: 'Beam', label: 'c-beam', backlogMinutes: 20 }],
      }),
      { clock },
    );
    cleanups.push(() => w.close());
    const prom = await startPrometheus(
      `global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files: ['${RULES}']\nscrape_configs:\n  - job_name: teleporter-watch\n    static_configs:\n      - targets: ['${new URL(w.metrics!.url).host}']\n`,
    );
    cleanups.push(() => prom.stop());
    const firing = async () => {
      const r = (await (await fetch(`${prom.url}/api/v1/alerts`)).json()) as { data: { alerts: Alert[] } };
      return r.data.alerts.filter((a) => a.state === 'firing' && ['RelayerSilent', 'RouteBacklog'].includes(a.labels.alertname ?? ''));
    };

    await pollNow(w);
    for (let i = 0; i < 4; i++) svc.simulator.send({ outcome: 'normal', source: C_CHAIN, destination: BEAM, deliveryDelayMs: 3_000 });
    // The outage: one message waits 45 min, and nobody delivers anything meanwhile.
    svc.simulator.send({ outcome: 'normal', source: C_CHAIN, destination: BEAM, deliveryDelayMs: 45 * 60_000 });
    await clock.advance(60_000);
    await pollNow(w);
    const overview = await w.core.invoke('relayerOverview', undefined);
    if (!overview.ok) throw new Error(overview.error.message);
    const delivering = (overview.value as RelayerOverview).relayers.filter((r) => r.deliveries24h > 0).map((r) => r.label);
    expect(delivering.length).toBeGreaterThan(0);

    await clock.advance(25 * 60_000);
    await pollNow(w);
    const alerts = await waitFor(
      async () => {
        const a = await firing();
        return a.length === delivering.length + 1 ? a : false;
      },
      30_000,
      'RelayerSilent for each relayer that had delivered, and RouteBacklog',
    );
    expect(
      alerts
        .filter((a) => a.labels.alertname === 'RelayerSilent')
        .map((a) => a.labels.relayer)
        .sort(),
    ).toEqual([...delivering].sort());
    expect(alerts.find((a) => a.labels.alertname === 'RouteBacklog')?.labels.route).toBe('c-beam');

    // The message is delivered: the watcher says both conditions cleared, and Prometheus stops firing.
    await clock.advance(20 * 60_000);
    await pollNow(w);
    await waitFor(async () => (await firing()).length === 0, 30_000, 'both alerts to clear');
  }, 120_000);
});
