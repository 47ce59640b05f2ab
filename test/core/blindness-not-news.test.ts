/**
 * Not seeing is never news about relayers (issue 41): the demo's relayers watched, then the data source
 * stops answering (its reads fail) or the user switches to a source that cannot be reached. The
 * relayer, route and stuck alerts that depend on it are held; the source's own alert says "Can't read
 * <source>" once it has failed SOURCE_DOWN_AFTER_MS, and "read again" when it is back; no figure of
 * another source is counted or alerted on as the current one's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../headless/engines';
import { startLocalService, type DemoRelayer } from '../../src/local-service';
import type { MonitorCore } from '../../src/core/monitor-core';
import type { NotificationPayload, PollStatus } from '../../src/shared/contract';
import type { RelayerOverview } from '../../src/shared/relayers';
import { SOURCE_DOWN_AFTER_MS } from '../../src/shared/policy';
import { JumpClock } from './http-helpers';
import { coreOnService } from './core-on-service';

const START = Date.UTC(2026, 0, 1, 12);
const STEP = 30_000;

describe('blindness is not news', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function demoWatched() {
    const clock = new JumpClock(START);
    const svc = await startLocalService({ clock, rate: 2, history: 2, warmStore: false });
    cleanups.push(() => svc.close());
    const info = (await (await fetch(`${svc.url}/_local/info`)).json()) as { demoRelayers: DemoRelayer[] };
    const core = await coreOnService(svc.url, clock, cleanups);
    const shown: { title: string; body: string; at: number }[] = [];
    core.attachNotifier((n: NotificationPayload) => void shown.push({ title: n.title, body: n.body, at: clock.now() }));
    const call = async <T = unknown>(method: string, input?: unknown): Promise<T> => {
      const r = await core.invoke(method, input);
      if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
      return r.value as T;
    };
    // Every steady relayer with its routes, thresholds short enough to fire within minutes of not seeing them deliver.
    const watched = info.demoRelayers.filter((r) => r.behaviour !== 'outage');
    const routes = new Set<string>();
    for (const r of watched)
      for (const route of r.routes) {
        const key = `${route.source}>${route.destination}`;
        if (routes.has(key)) continue;
        routes.add(key);
        await call('addRoute', { source: route.source, destination: route.destination, backlogMinutes: 3 });
      }
    for (const r of watched) await call('addRelayer', { address: r.address, label: r.name, silentMinutes: 2, pendingMinutes: 1 });
    const pollFor = async (ms: number) => {
      for (let t = 0; t < ms; t += STEP) {
        await call('pollNow');
        await clock.advance(STEP);
      }
    };
    return { clock, svc, core, call, shown, pollFor, watched };
  }

  const relayerAlerts = (shown: { title: string }[]) => shown.filter((s) => /^(Relayer silent|Route backlog|Message stuck)/.test(s.title));
  const status = (core: MonitorCore) => core.handlers.getPollStatus(undefined) as PollStatus;

  it('holds relayer alerts while the source fails, says so once it is down, and once it is read again', { timeout: 180_000 }, async () => {
    const { clock, svc, core, call, shown, pollFor } = await demoWatched();
    await pollFor(3 * 60_000);
    expect(status(core).source).toMatchObject({ source: 'local', state: 'up', seeing: true });
    const before = relayerAlerts(shown).length;

    svc.setFaults('5xx:1');
    const failedAt = clock.now();
    await pollFor(SOURCE_DOWN_AFTER_MS - 2 * STEP);
    expect(status(core).source).toMatchObject({ state: 'degraded', seeing: false });
    await pollFor(8 * 60_000);
    const down = status(core).source!;
    expect(down).toMatchObject({ state: 'down', seeing: false });
    // Down since the first failed read (its cycle's end, after its retries), not since the threshold passed.
    expect(down.since! - failedAt).toBeLessThan(STEP);
    expect(down.reason).toMatch(/500|server/i);
    // The watched relayers' deliveries are not seen for 8 minutes: no alert is made of that.
    expect(relayerAlerts(shown).slice(before)).toEqual([]);
    const cant = shown.filter((s) => s.title === "Can't read Embedded demo");
    expect(cant).toHaveLength(1);
    expect(cant[0]!.at - failedAt).toBeGreaterThanOrEqual(SOURCE_DOWN_AFTER_MS);
    expect(cant[0]!.body).toMatch(/held/);

    svc.setFaults(null);
    await pollFor(3 * 60_000);
    expect(status(core).source).toMatchObject({ state: 'up', seeing: true });
    expect(shown.filter((s) => s.title === 'Embedded demo read again')).toHaveLength(1);
    // Judged again on what is visible: the steady relayers deliver, so nothing fires now either.
    expect(
      relayerAlerts(shown)
        .slice(before)
        .filter((s) => s.title.startsWith('Relayer silent')),
    ).toEqual([]);
    expect(shown.filter((s) => s.title === "Can't read Embedded demo")).toHaveLength(1);
    await call('pollNow');
  });

  it('a switch to a source that cannot be read counts no figure of the demo and alerts on none', { timeout: 180_000 }, async () => {
    const { core, call, shown, pollFor, watched } = await demoWatched();
    await pollFor(3 * 60_000);
    const demoOverview = await call<RelayerOverview>('relayerOverview');
    expect(demoOverview.relayers.some((r) => r.deliveries24h > 0)).toBe(true);
    expect(status(core).tracked).toBeGreaterThan(0);
    const before = relayerAlerts(shown).length;

    const port = await freePort();
    await call('updateSettings', { dataSource: { kind: 'custom', baseUrl: `http://127.0.0.1:${port}` } });
    expect(status(core).lastSuccessAt).toBeNull();
    await pollFor(6 * 60_000);

    const s = status(core);
    expect(s.source).toMatchObject({ source: `custom:http://127.0.0.1:${port}`, state: 'down', seeing: false, lastSuccessAt: null });
    expect(s.lastSuccessAt).toBeNull();
    expect(s.tracked).toBe(0);
    expect(relayerAlerts(shown).slice(before)).toEqual([]);
    expect(shown.filter((x) => x.title === `Can't read 127.0.0.1:${port}`)).toHaveLength(1);
    const overview = await call<RelayerOverview>('relayerOverview');
    for (const w of watched) expect(overview.relayers.find((r) => r.address.toLowerCase() === w.address.toLowerCase())?.deliveries24h ?? 0).toBe(0);
    const stats = await call<{ byStatus: Record<string, number>; deliveryLatency: { count: number } }>('getStats', { hours: 24 });
    expect(stats.byStatus).toEqual({});
    expect(stats.deliveryLatency.count).toBe(0);

    // Back to the demo: its figures are current again; the unreachable source's alert ends without a "read again".
    await call('updateSettings', { dataSource: { kind: 'local' } });
    await pollFor(2 * 60_000);
    expect(status(core).source).toMatchObject({ source: 'local', state: 'up' });
    expect(shown.filter((x) => x.title.endsWith('read again'))).toEqual([]);
    expect((await call<RelayerOverview>('relayerOverview')).relayers.some((r) => r.deliveries24h > 0)).toBe(true);
  });
});
