/**
 * The demo's outage relayer, as a newcomer meets it: the default service (as `npm start` runs it, two
 * hours of history), its relayer watched from /_local/info with its routes in the first minute, and the
 * real core polling every 30 s. The relayer-silent alert shows within five minutes of the start and
 * resolves once the relayer is back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalService, type DemoRelayer } from '../../../src/local-service';
import type { NotificationPayload } from '../../../src/shared/contract';
import { JumpClock } from '../http-helpers';
import { coreOnService } from '../core-on-service';

const START = Date.UTC(2026, 0, 1, 12);

describe('the demo outage relayer', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('raises a relayer-silent alert within five minutes of the start, and a resolve after it returns', { timeout: 120_000 }, async () => {
    const clock = new JumpClock(START);
    const svc = await startLocalService({ clock, rate: 2, history: 2, warmStore: false });
    cleanups.push(() => svc.close());
    const info = (await (await fetch(`${svc.url}/_local/info`)).json()) as { demoRelayers: DemoRelayer[] };
    const blinker = info.demoRelayers.find((r) => r.behaviour === 'outage')!;
    const core = await coreOnService(svc.url, clock, cleanups);
    const shown: { title: string; at: number }[] = [];
    core.attachNotifier((n: NotificationPayload) => void shown.push({ title: n.title, at: clock.now() }));
    const call = async (method: string, input?: unknown) => {
      const r = await core.invoke(method, input);
      if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
      return r.value;
    };
    await clock.advance(30_000);
    // The poller reads a watched route itself.
    for (const r of blinker.routes) await call('addRoute', { source: r.source, destination: r.destination, alert: false });
    await call('addRelayer', { address: blinker.address, label: blinker.name, silentMinutes: 2, pendingMinutes: 1 });
    for (let t = 30_000; t < 10 * 60_000; t += 30_000) {
      await call('pollNow');
      await clock.advance(30_000);
    }
    const fired = shown.filter((s) => s.title === `Relayer silent: ${blinker.name}`);
    const resolved = shown.filter((s) => s.title === `Relayer delivering again: ${blinker.name}`);
    expect(fired).toHaveLength(1);
    expect(fired[0]!.at - START).toBeLessThanOrEqual(5 * 60_000);
    expect(resolved).toHaveLength(1);
    expect(resolved[0]!.at - START).toBeGreaterThanOrEqual(8 * 60_000);
  });
});
