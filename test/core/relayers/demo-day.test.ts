/**
 * The demo day as a newcomer meets it (src/simulator/demo-day.ts): the service as `npm start` runs it
 * (two hours of history, the demo day), in the first minute the "try this first" suggestions watched —
 * Blinker and Swift with their routes at the demo's thresholds, the busiest demo address — and the real
 * core polling every 30 s. Each alert kind fires and resolves within the day's first 16 minutes, and
 * nothing is left firing then.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalService, type DemoRelayer } from '../../../src/local-service';
import type { ActivityPage, AlertEntry, NotificationPayload } from '../../../src/shared/contract';
import type { Transition } from '../../../src/shared/transitions';
import { DEMO_DAY } from '../../../src/simulator/demo-day';
import { JumpClock } from '../http-helpers';
import { coreOnService } from '../core-on-service';

const START = Date.UTC(2026, 0, 1, 12);
const MIN = 60_000;
const RUN_MS = 16 * MIN;

describe('the demo day', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('fires and resolves every alert kind within its first 16 minutes, and leaves none firing', { timeout: 240_000 }, async () => {
    const clock = new JumpClock(START);
    const svc = await startLocalService({ clock, rate: 2, history: 2, warmStore: false, demoDay: true, tickMs: 5_000 });
    cleanups.push(() => svc.close());
    const info = (await (await fetch(`${svc.url}/_local/info`)).json()) as { demoRelayers: DemoRelayer[]; hotAddresses: string[] };
    const core = await coreOnService(svc.url, clock, cleanups);
    const shown: (NotificationPayload & { at: number })[] = [];
    core.attachNotifier((n: NotificationPayload) => void shown.push({ ...n, at: clock.now() }));
    const call = async <T>(method: string, input?: unknown): Promise<T> => {
      const r = await core.invoke(method, input);
      if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
      return r.value as T;
    };
    await clock.advance(20_000);
    // The suggestions: the outage and fuel relayers with their routes (the offer's thresholds), the busiest address.
    const watched = info.demoRelayers.filter((r) => r.behaviour === 'outage' || r.name === 'Swift');
    expect(watched).toHaveLength(2);
    const routes = new Set<string>();
    for (const relayer of watched) {
      for (const r of relayer.routes) {
        if (routes.has(`${r.source}>${r.destination}`)) continue;
        routes.add(`${r.source}>${r.destination}`);
        await call('addRoute', { source: r.source, destination: r.destination, backlogMinutes: 4 });
      }
      await call('addRelayer', { address: relayer.address, label: relayer.name, silentMinutes: 2, pendingMinutes: 1 });
    }
    await call('addWatch', { address: info.hotAddresses[0], label: 'busy' });
    for (let t = clock.now() - START; t <= RUN_MS; t += 30_000) {
      await call('pollNow');
      await clock.advance(30_000);
    }

    const page = await call<ActivityPage>('listActivity', { kinds: [], limit: 500 });
    const alerts = page.items.filter((i): i is AlertEntry => i.kind === 'alert').reverse();
    const episodes = (kind: string) => alerts.filter((a) => a.episodeKind === kind);
    for (const kind of ['relayer_silent', 'route_backlog', 'fuel_low', 'route_failed_executions']) {
      const e = episodes(kind);
      expect(e.filter((a) => a.phase === 'fire').length, `${kind} fired`).toBeGreaterThanOrEqual(1);
      // Every episode that fired resolved within the run: nothing left firing.
      expect(e.filter((a) => a.phase === 'resolve').length, `${kind} resolved`).toBe(e.filter((a) => a.phase === 'fire').length);
    }
    // Blinker's outage (2-8 min): silent, and its routes backed up, from within it to its end.
    const silent = episodes('relayer_silent');
    expect(silent[0]!.at - START).toBeLessThan(DEMO_DAY.outage.startMs + DEMO_DAY.outage.durationMs);
    expect(silent[silent.length - 1]!.at - START).toBeGreaterThanOrEqual(DEMO_DAY.outage.startMs + DEMO_DAY.outage.durationMs);
    // Swift's wallet starts the day low: alerted at its first read, refilled at 10 min and seen at a read after.
    const fuel = episodes('fuel_low');
    expect(fuel[0]!.body).toMatch(/^Relayer Swift will run out of gas on C-Chain in about \d+ min at the last hour's rate\.$/);
    expect(fuel[fuel.length - 1]!.at - START).toBeGreaterThanOrEqual(DEMO_DAY.refillAtMs);
    // The burst of failed executions (from 3 min) is retried 4 min after each delivery: under the threshold again.
    const failed = episodes('route_failed_executions');
    expect(failed[0]!.at - START).toBeGreaterThanOrEqual(DEMO_DAY.failures.atMs);
    expect(failed[failed.length - 1]!.title).toMatch(/^Failed executions back under the threshold/);
    // The message sent 29 min before the start is stuck in the first minutes, then delivered (no message of the busy address stays pending for good).
    const moves = await call<ActivityPage>('listActivity', { kinds: ['stuck', 'left_pending'], alertKinds: [], limit: 500 });
    const transitions = moves.items.filter((i): i is Transition => i.kind !== 'alert').reverse();
    const stuck = transitions.filter((t) => t.kind === 'stuck');
    expect(stuck.length).toBeGreaterThanOrEqual(1);
    expect(stuck[0]!.at - START).toBeLessThan(5 * MIN);
    for (const s of stuck.filter((x) => x.at - START < RUN_MS - DEMO_DAY.stuck.waitMs + 30 * MIN)) {
      expect(
        transitions.some((t) => t.kind === 'left_pending' && t.messageId === s.messageId && t.at > s.at),
        `stuck ${s.messageId} delivered`,
      ).toBe(true);
    }
  });
});
