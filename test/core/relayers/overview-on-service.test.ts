import { afterEach, describe, expect, it } from 'vitest';
import { startLocalService } from '../../../src/local-service';
import type { MonitorEvent } from '../../../src/shared/contract';
import type { RelayerOverview, WatchedRoute } from '../../../src/shared/relayers';
import type { CacheSummary } from '../../../src/shared/contract';
import { coreOnService } from '../core-on-service';
import { BEAM, C_CHAIN } from '../helpers';
import { JumpClock } from '../http-helpers';

interface Rec {
  status: string;
  sourceTransaction?: { timestamp: number };
  destinationTransaction?: { timestamp: number; delivererAddress: string };
}

/** Nearest rank over the service's own records (the truth), independent of the monitor. */
const nearestRank = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;

describe('the Relayers figures on the real core and the local service', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('counts what the service delivered, per relayer and route, from the cache alone, and follows each poll cycle', async () => {
    const clock = new JumpClock(Date.UTC(2026, 0, 1, 12));
    const svc = await startLocalService({ clock, rate: 0, warmStore: false, addressCount: 10 });
    cleanups.push(() => svc.close());
    const core = await coreOnService(svc.url, clock, cleanups);
    const call = async <T>(method: string, input?: unknown): Promise<T> => {
      const r = await core.invoke(method, input);
      if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
      return r.value as T;
    };
    const watchedRelayer = svc.simulator.relayers[0]!;
    await call('addRelayer', { address: watchedRelayer, label: 'ours' });
    const route = await call<WatchedRoute>('addRoute', { source: 'C-Chain', destination: 'Beam' });
    await call('pollNow');

    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      await clock.advance(1000);
      ids.push(svc.simulator.send({ outcome: 'normal', source: C_CHAIN, destination: BEAM, deliveryDelayMs: 5_000 * (i + 1) }));
    }
    const late = [0, 1].map(() => svc.simulator.send({ outcome: 'normal', source: C_CHAIN, destination: BEAM, deliveryDelayMs: 20 * 60_000 }));
    // Another route's traffic is not counted.
    svc.simulator.send({ outcome: 'normal', source: BEAM, destination: C_CHAIN, deliveryDelayMs: 5_000 });
    await clock.advance(2 * 60_000);
    await call('pollNow');

    const truth = () => {
      // Every message on the route: ours, and the receipt carriers the simulated relayers send on it.
      const page = svc.store.page({ source: { kind: 'blockchainId', value: C_CHAIN }, destination: { kind: 'blockchainId', value: BEAM } }, undefined, 1000);
      const recs = page.records.map((r) => JSON.parse(r) as Rec);
      const delivered = recs.filter((r) => r.status === 'delivered');
      const by = new Map<string, number[]>();
      for (const r of delivered) {
        const d = r.destinationTransaction!;
        by.set(d.delivererAddress, [...(by.get(d.delivererAddress) ?? []), d.timestamp - r.sourceTransaction!.timestamp]);
      }
      return { by, delivered: delivered.length, pending: recs.filter((r) => r.status === 'pending') };
    };
    const check = (o: RelayerOverview) => {
      const t = truth();
      const rows = new Map(o.relayers.map((r) => [r.address, r]));
      expect(o.relayers[0]).toMatchObject({ address: watchedRelayer, watched: true, label: 'ours' });
      for (const [deliverer, latencies] of t.by) {
        const row = rows.get(deliverer)!;
        const sorted = [...latencies].sort((a, b) => a - b);
        expect(row.deliveries24h).toBe(latencies.length);
        expect(row.latency).toEqual({ p50: nearestRank(sorted, 50), p95: nearestRank(sorted, 95), count: latencies.length });
        expect(row.routes).toEqual([{ routeId: route.id, deliveries: latencies.length, share: latencies.length / t.delivered }]);
      }
      // Every row counts deliveries the truth has; a relayer with none says so (no latency, never a zero).
      for (const row of o.relayers) if (!t.by.has(row.address)) expect(row).toMatchObject({ deliveries24h: 0, latency: null, lastDeliveryAt: null });
      const [routeRow] = o.routes;
      expect(routeRow).toMatchObject({ pending: t.pending.length, deliveries24h: t.delivered });
      expect(t.delivered).toBeGreaterThanOrEqual(ids.length);
      return t;
    };

    const before = svc.requestCount();
    const first = await call<RelayerOverview>('relayerOverview');
    expect(svc.requestCount()).toBe(before); // from the cache: no Data API request
    const t1 = check(first);
    expect(t1.pending).toHaveLength(2);
    expect(first.routes[0]!.oldestPendingSince).toBe(t1.pending[0]!.sourceTransaction!.timestamp * 1000);
    const busiest = first.relayers.find((r) => !r.watched && r.deliveries24h > 0) ?? first.relayers.find((r) => r.deliveries24h > 0)!;
    const listed = await call<CacheSummary[]>('relayerFigureMessages', { relayer: busiest.address, figure: 'deliveries24h' });
    expect(listed).toHaveLength(busiest.deliveries24h);
    expect(listed.every((s) => s.status === 'delivered' && s.sourceChain === C_CHAIN && s.destinationChain === BEAM)).toBe(true);
    const pendingListed = await call<CacheSummary[]>('relayerFigureMessages', { routeId: route.id, figure: 'pending' });
    expect(pendingListed.map((s) => s.messageId).sort()).toEqual([...late].sort());

    // The late ones are delivered: the route alone has the poller re-check them, and the next read counts them.
    // They make no Activity: a route's messages are not news one by one (its alerts are episodes).
    const events: MonitorEvent[] = [];
    core.onEvent((e) => events.push(e));
    await clock.advance(20 * 60_000);
    await call('pollNow');
    expect(events.some((e) => e.type === 'transitions')).toBe(false);
    const second = await call<RelayerOverview>('relayerOverview');
    expect(check(second).pending).toHaveLength(0);
    expect(second.routes[0]).toMatchObject({ pending: 0, oldestPendingSince: null });
    expect(second.routes[0]!.deliveries24h).toBeGreaterThanOrEqual(ids.length + late.length);
  });
});
