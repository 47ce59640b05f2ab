import { afterEach, describe, expect, it } from 'vitest';
import { startLocalService } from '../../src/local-service';
import { JumpClock } from '../core/http-helpers';
import { waitFor } from '../support/wait-for';
import { missing, PROMETHEUS } from './engines';
import { startOutage, startRelayerWatcher } from './relayer-rig';
import { alertStack, pollNow } from './rig';

describe.skipIf(missing(PROMETHEUS))('the real Prometheus with the deploy rules and a headless watcher of relayers', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('fires RelayerSilent and RouteBacklog on a simulated outage and clears both once the message is delivered', async () => {
    // The watcher's world moves on a jump clock (poll by poll); Prometheus reads the conditions it exports.
    const clock = new JumpClock(Date.now());
    const svc = await startLocalService({ clock, rate: 0, warmStore: false, addressCount: 10 });
    cleanups.push(() => svc.close());
    const w = await startRelayerWatcher(svc, clock, cleanups, { dirPrefix: 'tw-prom-relayers-', backlogMinutes: 20 });
    const prom = await alertStack.prometheus(cleanups, w);
    const firing = async () => [...(await prom.firing('RelayerSilent')), ...(await prom.firing('RouteBacklog'))];

    const delivering = await startOutage(svc, clock, w);
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
        .filter((a) => a.alertname === 'RelayerSilent')
        .map((a) => a.relayer)
        .sort(),
    ).toEqual(delivering);
    expect(alerts.find((a) => a.alertname === 'RouteBacklog')?.route).toBe('c-beam');

    // The message is delivered: the watcher says both conditions cleared, and Prometheus stops firing.
    await clock.advance(20 * 60_000);
    await pollNow(w);
    await waitFor(async () => (await firing()).length === 0, 30_000, 'both alerts to clear');
  }, 120_000);
});
