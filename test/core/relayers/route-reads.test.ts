import { afterEach, describe, expect, it } from 'vitest';
import { startLocalService } from '../../../src/local-service';
import type { CachedMessage, MonitorEvent, NotificationPayload } from '../../../src/shared/contract';
import { effectiveStatus } from '../../../src/shared/messages';
import type { RelayerOverview, WatchedRoute } from '../../../src/shared/relayers';
import { coreOnService } from '../core-on-service';
import { BEAM, C_CHAIN } from '../helpers';
import { JumpClock } from '../http-helpers';
import { recordingProxy } from './recording-proxy';

/** A list read filtered on the route's two chains. */
const isRouteRead = (line: string) => line.includes(`sourceBlockchainId=${C_CHAIN}`) && line.includes(`destinationBlockchainId=${BEAM}`);

describe('a watched route read by the poller itself (no feed, no watched address)', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('gets its messages, pending count, delivery figures and relayer-silent episode; one route read per cycle alone, none extra with the firehose', async () => {
    const clock = new JumpClock(Date.UTC(2026, 0, 1, 12));
    const svc = await startLocalService({ clock, rate: 0, warmStore: false, addressCount: 10 });
    cleanups.push(() => svc.close());
    const proxy = await recordingProxy(svc.url);
    cleanups.push(() => proxy.close());
    const requests = proxy.targets;
    const core = await coreOnService(proxy.url, clock, cleanups);
    const shown: NotificationPayload[] = [];
    core.attachNotifier((n) => void shown.push(n));
    const events: MonitorEvent[] = [];
    core.onEvent((e) => events.push(e));
    const call = async <T>(method: string, input?: unknown): Promise<T> => {
      const r = await core.invoke(method, input);
      if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
      return r.value as T;
    };
    /** One poll cycle; returns the route reads it made. */
    const cycle = async () => {
      const from = requests.length;
      await call('pollNow');
      return requests.slice(from).filter(isRouteRead).length;
    };

    const route = await call<WatchedRoute>('addRoute', { source: 'C-Chain', destination: 'Beam', label: 'c-beam' });
    expect(await cycle()).toBeGreaterThan(0); // the silent baseline through the route's own list
    for (let i = 0; i < 6; i++) svc.simulator.send({ outcome: 'normal', source: C_CHAIN, destination: BEAM, deliveryDelayMs: 3_000 });
    svc.simulator.send({ outcome: 'normal', source: BEAM, destination: C_CHAIN, deliveryDelayMs: 3_000 }); // another route
    await clock.advance(60_000);
    // Per-address mode (one watcher): the route is one filtered list read per cycle.
    expect(await cycle()).toBe(1);
    const first = await call<RelayerOverview>('relayerOverview');
    expect(first.routes[0]).toMatchObject({ route: { id: route.id }, pending: 0 });
    expect(first.routes[0]!.deliveries24h).toBe(6);
    const ours = first.relayers.find((r) => r.deliveries24h > 0)!;
    await call('addRelayer', { address: ours.address, label: 'ours', silentMinutes: 10, pendingMinutes: 5 });

    // The outage: one message waits 45 min on the route, nobody delivers meanwhile.
    const late = svc.simulator.send({ outcome: 'normal', source: C_CHAIN, destination: BEAM, deliveryDelayMs: 45 * 60_000 });
    // 15 min: past the 10 min of silence even when a relayer's receipt re-send on the route (3 min after
    // the message back was delivered) was ours, its last delivery.
    for (let m = 0; m < 15; m++) {
      await clock.advance(60_000);
      expect(await cycle()).toBe(1);
    }
    const outage = await call<RelayerOverview>('relayerOverview');
    expect(outage.routes[0]).toMatchObject({ pending: 1 });
    expect(shown.map((n) => n.title)).toEqual(['Relayer silent: ours']);
    // The route's messages are tracked but are not news one by one: no transitions, no per-message notification.
    expect(events.filter((e) => e.type === 'transitions')).toEqual([]);

    // Firehose mode (three watched addresses join): the head of the unfiltered list covers the route, no route read.
    for (const address of svc.simulator.addresses.slice(0, 3)) await call('addWatch', { address });
    await clock.advance(10_000);
    await call('pollNow'); // the addresses' baselines
    for (let m = 0; m < 3; m++) {
      await clock.advance(60_000);
      expect(await cycle()).toBe(0);
    }

    // The late one is delivered: the firehose re-checks it for the route, the episode resolves.
    await clock.advance(35 * 60_000);
    expect(await cycle()).toBe(0);
    const after = await call<RelayerOverview>('relayerOverview');
    expect(after.routes[0]).toMatchObject({ pending: 0 });
    // The six, the late one, and any receipt carrier the simulator's relayers sent on the route.
    expect(after.routes[0]!.deliveries24h).toBeGreaterThanOrEqual(7);
    const cached = await call<CachedMessage | null>('getMessage', { messageId: late });
    expect(effectiveStatus(cached!.message)).toBe('delivered');
    // (The watched addresses may notify about their own messages; the relayer's episode fired once and resolved once.)
    expect(shown.map((n) => n.title).filter((t) => t.includes('Relayer'))).toEqual(['Relayer silent: ours', expect.stringMatching(/Relayer/)]);
  });
});
