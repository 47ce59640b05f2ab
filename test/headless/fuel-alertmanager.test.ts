/**
 * Issue 31 end to end: the headless watcher of a relayer whose wallet runs dry (the local service's dry
 * demo wallet), the real Prometheus with the deploy rules firing TeleporterWatchRelayerFuelLow from the
 * exported gauge, and the watcher's Alertmanager channel pushing TeleporterRelayerFuelLow to a real
 * Alertmanager; both clear after the refill.
 */
import { roundHoursToEmpty } from '../../src/shared/time-to-empty';
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalService, type DemoRelayer } from '../../src/local-service';
import { REFILL_EVERY_MS } from '../../src/simulator/wallets';
import { chainLabel } from '../../src/shared/chains';
import type { RelayerEconomics } from '../../src/shared/relayers';
import { JumpClock } from '../core/http-helpers';
import { waitFor } from '../support/wait-for';
import { ALERTMANAGER, missing, PROMETHEUS } from './engines';
import { alertStack, baseConfig, pollNow, startWatcher, tempDir } from './rig';

describe.skipIf(missing(PROMETHEUS, ALERTMANAGER))('the fuel alert end to end: the real Prometheus and the real Alertmanager', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('fires while the dry wallet runs low (rule and pushed alert) and clears both after its refill', async () => {
    // An hour before a refill, well in the past (what the watcher pushes lies in Alertmanager's past).
    const refillAt = Math.floor((Date.now() - 2 * 3_600_000) / REFILL_EVERY_MS) * REFILL_EVERY_MS;
    const clock = new JumpClock(refillAt - 3_600_000);
    const svc = await startLocalService({ clock, rate: 2, dryWallet: true, warmStore: false, rateLimitPerMinute: { keyed: 1e6, anonymous: 1e6 } });
    cleanups.push(() => svc.close());
    const dry = svc.simulator.wallets.dry!;
    const chain = chainLabel(dry.blockchainId);
    const info = (await (await fetch(`${svc.url}/_local/info`)).json()) as { demoRelayers: DemoRelayer[] };
    const swift = info.demoRelayers.find((r) => r.address.toLowerCase() === dry.relayer)!;
    const am = await alertStack.alertmanager(cleanups);
    const w = await startWatcher(
      tempDir('tw-fuel-am-'),
      baseConfig(svc.url, {
        watches: [],
        relayers: [{ address: swift.address, label: 'Swift' }],
        routes: swift.routes.map((r) => ({ source: r.source, destination: r.destination, backlogMinutes: 600 })),
        relayerFuelThresholdHours: 6,
        alerts: { channels: [{ type: 'alertmanager', url: am.url, timeoutSeconds: 2 }] },
      }),
      { clock },
    );
    cleanups.push(() => w.close());
    const prom = await alertStack.prometheus(cleanups, w);
    const promFiring = () => prom.firing('TeleporterWatchRelayerFuelLow');
    const amFuel = () => am.alerts('TeleporterRelayerFuelLow');
    const economics = async () => {
      const r = await w.core.invoke('relayerEconomics', undefined);
      if (!r.ok) throw new Error(r.error.message);
      return r.value as RelayerEconomics;
    };

    // Five-minute polls until the wallet is low (each poll reads the balances that are due).
    let low = false;
    while (!low && clock.now() < refillAt) {
      await pollNow(w);
      low = (await economics()).fuel.some((f) => f.low && f.blockchainId === dry.blockchainId);
      if (!low) await clock.advance(5 * 60_000);
    }
    expect(low).toBe(true);
    const fired = await waitFor(
      async () => {
        const a = await promFiring();
        return a.length ? a : false;
      },
      30_000,
      'Prometheus firing TeleporterWatchRelayerFuelLow',
    );
    expect(fired).toEqual([expect.objectContaining({ relayer: 'Swift', chain, severity: 'warning' })]);
    const active = await waitFor(
      async () => {
        const a = (await amFuel()).filter((x) => x.status.state === 'active');
        return a.length ? a : false;
      },
      30_000,
      'Alertmanager holding TeleporterRelayerFuelLow',
    );
    expect(active).toHaveLength(1);
    expect(active[0]!.labels).toMatchObject({ kind: 'fuel_low', network: 'mainnet', severity: 'warning', watch: `Swift on ${chain}` });
    // Hours to empty at or below the threshold, exported per relayer and chain.
    const scrape = await (await fetch(w.metrics!.url)).text();
    const hours = Number(new RegExp(`teleporter_watch_relayer_hours_to_empty\\{relayer="Swift",chain="${chain}"\\} ([0-9.e+-]+)`).exec(scrape)?.[1]);
    expect(hours).toBeLessThanOrEqual(6);
    // The same figure as the Relayers view's and the alert's (src/shared/time-to-empty.ts), not a finer one.
    const figure = (await economics()).fuel.find((f) => f.blockchainId === dry.blockchainId)!.hoursToEmpty!;
    expect(hours).toBeCloseTo(figure, 9);
    expect(hours).toBe(roundHoursToEmpty(hours));

    // Past the refill: the next read shows a higher balance; the rule and the pushed alert clear. (The
    // demo's refill is small on purpose: the read after next may fire again, as a new episode.)
    await clock.advance(refillAt + 60_000 - clock.now());
    await pollNow(w);
    expect((await economics()).fuel.find((f) => f.blockchainId === dry.blockchainId)?.low).toBe(false);
    await waitFor(async () => (await promFiring()).length === 0, 30_000, 'Prometheus to stop firing');
    await waitFor(async () => (await amFuel()).every((a) => a.status.state !== 'active'), 30_000, 'Alertmanager to resolve TeleporterRelayerFuelLow');
  }, 180_000);
});
