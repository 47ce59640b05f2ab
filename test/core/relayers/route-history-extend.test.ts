/**
 * Reading a watched route's last 24 h after it was watched with the default hour (readRouteHistory), on
 * the real core and the local service with a day of history, at a plan's budget small enough that the
 * read takes several cycles: news goes first (a delivery of a watched address's message during the read
 * is reported once, in the cycle that meets it), the history it finds is silent (no transition, no
 * notification), the figures keep what they held until it ends, then hold the whole day.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalService, type SimulatedService } from '../../../src/local-service';
import { messageTimestamp, parseMessage, type TeleporterMessage } from '../../../src/shared/messages';
import type { MonitorEvent, Transition } from '../../../src/shared/contract';
import type { RelayerEconomics, RelayerOverview, RouteHistoryRead } from '../../../src/shared/relayers';
import type { MonitorCore } from '../../../src/core/monitor-core';
import { coreOnService } from '../core-on-service';
import { BEAM, C_CHAIN, tempDir } from '../helpers';
import { JumpClock } from '../http-helpers';

const START = Date.UTC(2026, 0, 1, 12);
const HOUR = 3_600_000;
const NOTIFY_ALL = { new: true, left_pending: true, receipt_delivered: true, stuck: true };

async function call<T>(core: MonitorCore, method: string, input?: unknown): Promise<T> {
  const r = await core.invoke(method, input);
  if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
  return r.value as T;
}

type Known = Exclude<TeleporterMessage, { status: 'unknown' }>;

/** Every record of the service's store (the list orders them by messageTimestamp, newest first). */
function records(svc: SimulatedService): Known[] {
  const out: Known[] = [];
  for (let before: number | undefined; ;) {
    const page = svc.store.page({}, before, 5000);
    for (const r of page.records) {
      const m = parseMessage(JSON.parse(r));
      if (m && m.status !== 'unknown') out.push(m);
    }
    if (!page.hasMore) return out;
    before = page.positions[page.positions.length - 1];
  }
}

/** A day of history on the local service (its limits lifted: the core's plan is the budget here). */
async function dayWorld(cleanups: (() => Promise<void> | void)[]) {
  const clock = new JumpClock(START);
  const svc = await startLocalService({ clock, rate: 1, history: 26, warmStore: false, rateLimitPerMinute: { keyed: 1e6, anonymous: 1e6 } });
  cleanups.push(() => svc.close());
  return { clock, svc };
}

/**
 * A core watching C-Chain → Beam (first read: the default hour), on 400 CU a minute (about 19 requests,
 * 9 a 30-s cycle: a day's read takes several cycles after news); `watch` adds more watches first.
 */
async function routeCore(
  world: Awaited<ReturnType<typeof dayWorld>>,
  cleanups: (() => Promise<void> | void)[],
  o: { dataDir?: string; watch?: (core: MonitorCore) => Promise<void> } = {},
) {
  const { clock, svc } = world;
  const core = await coreOnService(svc.url, clock, cleanups, o.dataDir ? { dataDir: o.dataDir } : {});
  await call(core, 'updateSettings', { plan: { cuPerMinute: 400, cuPerDay: 10_000_000 } });
  await o.watch?.(core);
  const route = await call<{ id: string }>(core, 'addRoute', { source: 'C-Chain', destination: 'Beam', label: 'c-beam', alert: false });
  const overview = () => call<RelayerOverview>(core, 'relayerOverview');
  const cycle = async () => {
    await clock.advance(30_000);
    await call(core, 'pollNow');
  };
  await call(core, 'pollNow');
  for (let i = 0; i < 20 && (await overview()).routes[0]!.history.reading; i++) await cycle();
  return { core, route, overview, cycle };
}

describe('reading a watched route’s history later', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it(
    'takes its last 24 h silently after news, over several cycles: the day figures hold them, a delivery meanwhile is reported once',
    { timeout: 180_000 },
    async () => {
      const world = await dayWorld(cleanups);
      const { clock, svc } = world;
      const onRoute = (m: Known) => m.sourceBlockchainId === C_CHAIN && m.destinationBlockchainId === BEAM;
      const sent = (m: TeleporterMessage) => (messageTimestamp(m) ?? 0) * 1000;
      // The watched address: the one with the most messages on the route between 2 and 24 h ago (history only the day's read finds).
      const old = records(svc).filter((m) => onRoute(m) && sent(m) < START - 2 * HOUR && sent(m) > START - 24 * HOUR);
      const counts = new Map<string, number>();
      for (const m of old) counts.set(m.from, (counts.get(m.from) ?? 0) + 1);
      const [address, itsOld] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
      expect(itsOld).toBeGreaterThan(3);

      const watch = (c: MonitorCore) => call(c, 'addWatch', { address, label: 'sender', notify: NOTIFY_ALL }).then(() => undefined);
      const { core, route, overview, cycle } = await routeCore(world, cleanups, { watch });
      // The first read took the last hour: the figures say since when.
      const first = await overview();
      const floor = first.historyFrom!;
      expect(first.routes[0]!.history).toEqual({ from: floor, reading: false, readsFrom: null });
      expect(floor).toBeLessThanOrEqual(START - HOUR + 1000);
      expect(floor).toBeGreaterThan(START - 2 * HOUR);
      for (const m of old.filter((x) => x.from === address)) expect(await call(core, 'getMessage', { messageId: m.messageId })).toBeNull();

      // A message of the watched address on the route, pending while the read goes on, delivered in its middle.
      const events: MonitorEvent[] = [];
      core.onEvent((e) => events.push(e));
      const during = svc.simulator.send({ outcome: 'normal', from: address, source: C_CHAIN, destination: BEAM, deliveryDelayMs: 75_000 });
      await cycle();
      const askedAt = clock.now();
      const asked = await call<RouteHistoryRead>(core, 'readRouteHistory', { routeId: route.id, hours: 24 });
      expect(asked).toEqual({ routeId: route.id, started: true, from: floor, reading: true, readsFrom: askedAt - 24 * HOUR });
      // Asked again while it reads: nothing more to start.
      expect((await call<RouteHistoryRead>(core, 'readRouteHistory', { source: 'C-Chain', destination: 'Beam', hours: 12 })).started).toBe(false);

      // Cycle by cycle until it ends: the figures keep what they held meanwhile.
      let cycles = 0;
      let deliveredIn: number | null = null;
      for (; cycles < 40; cycles++) {
        await cycle();
        const now = await overview();
        const left = events.some((e) => e.type === 'transitions' && e.transitions.some((t) => t.messageId === during && t.kind === 'left_pending'));
        if (left && deliveredIn === null) deliveredIn = cycles;
        if (!now.routes[0]!.history.reading) break;
        expect(now.historyFrom).toBe(floor);
        expect(now.routes[0]!.history).toEqual({ from: floor, reading: true, readsFrom: askedAt - 24 * HOUR });
      }
      expect(cycles).toBeGreaterThanOrEqual(2); // the read took several cycles
      expect(cycles).toBeLessThan(40);
      // The delivery was reported in the cycle that met it (75 s after it was sent: the third 30-s cycle), not after the read.
      expect(deliveredIn).not.toBeNull();
      expect(deliveredIn!).toBeLessThanOrEqual(2);
      expect(deliveredIn!).toBeLessThan(cycles); // while the read was still going on

      // Every change reported meanwhile is news: a message sent within the last hours (none of the history the read found), once each.
      const transitions: Transition[] = events.flatMap((e) => (e.type === 'transitions' ? e.transitions : []));
      expect(transitions.filter((t) => t.messageId === during && t.kind === 'left_pending')).toHaveLength(1);
      const keys = transitions.map((t) => `${t.messageId}:${t.kind}`);
      expect(new Set(keys).size).toBe(keys.length);
      const sentOf = async (id: string) => {
        const m = await call<{ message: TeleporterMessage } | null>(core, 'getMessage', { messageId: id });
        return sent(m!.message);
      };
      for (const t of transitions) expect(await sentOf(t.messageId)).toBeGreaterThanOrEqual(floor - 1000);
      const notified = events.filter((e) => e.type === 'notification');
      for (const e of notified)
        for (const id of e.type === 'notification' ? e.notification.transitionIds : []) expect(transitions.map((t) => t.id)).toContain(id);
      // The address's old messages on the route are now held (found by the read), silently.
      const itsHistory = old.filter((x) => x.from === address);
      for (const m of itsHistory) expect(await call(core, 'getMessage', { messageId: m.messageId })).not.toBeNull();
      const log = await call<{ items: Transition[] }>(core, 'listTransitions', { limit: 500 });
      const historyIds = new Set(itsHistory.map((m) => m.messageId));
      expect(log.items.filter((t) => historyIds.has(t.messageId))).toEqual([]);

      // After it: the figures hold the whole last day, counting each delivery once.
      const done = await overview();
      const economics = await call<RelayerEconomics>(core, 'relayerEconomics');
      expect(done.historyFrom).toBeNull();
      expect(economics.historyFrom).toBeNull();
      expect(done.routes[0]!.history).toEqual({ from: null, reading: false, readsFrom: askedAt - 24 * HOUR });
      const now = clock.now();
      const dayDeliveries = records(svc).filter((m) => onRoute(m) && m.status !== 'pending' && m.destinationTransaction.timestamp * 1000 > now - 24 * HOUR);
      expect(done.routes[0]!.deliveries24h).toBe(dayDeliveries.length);
      const counted = await call<{ messageId: string }[]>(core, 'relayerFigureMessages', { routeId: route.id, figure: 'deliveries24h' });
      expect(counted.filter((m) => m.messageId === during)).toHaveLength(1);
      expect(counted.length).toBe(dayDeliveries.length);

      // Asked again: it already holds the day, nothing to read.
      expect(await call<RouteHistoryRead>(core, 'readRouteHistory', { routeId: route.id, hours: 24 })).toMatchObject({
        started: false,
        reading: false,
        from: null,
      });
    },
  );

  it('a restart during the read goes on back to the hours asked', { timeout: 180_000 }, async () => {
    const world = await dayWorld(cleanups);
    const tmp = tempDir();
    cleanups.push(() => tmp.cleanup());
    const before = await routeCore(world, cleanups, { dataDir: tmp.dir });
    const floor = (await before.overview()).historyFrom!;
    const asked = await call<RouteHistoryRead>(before.core, 'readRouteHistory', { routeId: before.route.id, hours: 24 });
    expect(asked.started).toBe(true);
    await before.cycle();
    expect((await before.overview()).routes[0]!.history).toEqual({ from: floor, reading: true, readsFrom: asked.readsFrom });
    await before.core.close();

    // The same data folder: the read is still asked, and goes on to the day (not to the first read's hour).
    const core = await coreOnService(world.svc.url, world.clock, cleanups, { dataDir: tmp.dir });
    const overview = () => call<RelayerOverview>(core, 'relayerOverview');
    expect((await overview()).routes[0]!.history).toEqual({ from: floor, reading: true, readsFrom: asked.readsFrom });
    for (let i = 0; i < 20 && (await overview()).routes[0]!.history.reading; i++) {
      await world.clock.advance(30_000);
      await call(core, 'pollNow');
    }
    const done = await overview();
    expect(done.routes[0]!.history).toEqual({ from: null, reading: false, readsFrom: asked.readsFrom });
    expect(done.historyFrom).toBeNull();
  });
});
