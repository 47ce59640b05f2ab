import { describe, expect, it } from 'vitest';
import { attributionOf } from '../../../src/core/relayers/attribution';
import { countedMessages } from '../../../src/core/relayers/counted-messages';
import { LatencyHistogram } from '../../../src/core/relayers/latency-histogram';
import { percentile } from '../../../src/core/store/stats';
import { randomAddress } from '../helpers';
import { delivery, DEXALOT, figuresOf, NOW, pending, relayer, route } from './records';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('relayer figures', () => {
  it('latency is destination minus source transaction time, p50 and p95 by nearest rank, in seconds', () => {
    const a = randomAddress();
    // 20 deliveries with latencies 1..20 s; one source-not-indexed delivery has no latency.
    const ds = Array.from({ length: 20 }, (_, i) =>
      delivery({ deliverer: a, sentAt: NOW - HOUR + i * MIN, deliveredAt: NOW - HOUR + i * MIN + (i + 1) * 1000 }),
    );
    ds.push(delivery({ deliverer: a, sentAt: null, deliveredAt: NOW - MIN }));
    const scope = { now: NOW, relayers: [], routes: [route('r')] };
    const { overview } = figuresOf(scope, ds);
    expect(overview.relayers[0]!.latency).toEqual({ p50: 10, p95: 19, count: 20 });
    expect(overview.routes[0]!.latency).toEqual({ p50: 10, p95: 19, count: 20 });
    expect(figuresOf(scope, [delivery({ deliverer: a, sentAt: null, deliveredAt: NOW })]).overview.relayers[0]!.latency).toBeNull();
  });

  it('latency percentiles kept as counts per value equal nearest rank over the sorted values, ties and all', () => {
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (const n of [1, 2, 3, 19, 20, 21, 100, 997]) {
      const h = new LatencyHistogram();
      const values = Array.from({ length: n }, () => Math.floor(next() * 40) - 2 + (next() < 0.1 ? 0.5 : 0));
      values.forEach((v) => h.add(v));
      const sorted = [...values].sort((x, y) => x - y);
      expect(h.figures()).toEqual({ p50: percentile(sorted, 50), p95: percentile(sorted, 95), count: n });
    }
    expect(new LatencyHistogram().figures()).toBeNull();
  });

  it('a watched relayer with no deliveries has a row that says so: no latency, no last delivery, never a zero latency', () => {
    const mine = randomAddress();
    const other = randomAddress();
    const rows = figuresOf({ now: NOW, relayers: [relayer(mine, { label: 'ours' })], routes: [route('r1')] }, [
      delivery({ deliverer: other, sentAt: NOW - 2 * MIN, deliveredAt: NOW - MIN }),
    ]).overview.relayers;
    expect(rows.map((r) => [r.address, r.watched, r.label, r.deliveries24h])).toEqual([
      [mine, true, 'ours', 0],
      [other, false, '', 1],
    ]);
    expect(rows[0]!.latency).toBeNull();
    expect(rows[0]!.lastDeliveryAt).toBeNull();
    expect(rows[0]!.rewards).toEqual([]);
  });

  it('counts deliveries in the last hour and 24 h, shares of each route, buckets and the last delivery', () => {
    const fast = randomAddress();
    const slow = randomAddress();
    const d = (deliverer: string, agoMin: number, destination?: string) =>
      delivery({ deliverer, sentAt: NOW - agoMin * MIN - 5000, deliveredAt: NOW - agoMin * MIN, ...(destination ? { destination } : {}) });
    const deliveries = [
      d(fast, 1),
      d(fast, 30),
      d(fast, 90),
      d(slow, 10),
      d(slow, 25 * 60), // older than 24 h: only its last delivery time counts... but a newer one exists
      d(slow, 5, DEXALOT),
      d(randomAddress(), 3, DEXALOT),
      // On no watched route: left out of everything.
      delivery({ deliverer: fast, sentAt: NOW - 2 * MIN, deliveredAt: NOW - MIN, source: DEXALOT }),
    ];
    const routes = [route('cb'), route('cd', { destinationChain: DEXALOT })];
    const scope = { now: NOW, relayers: [relayer(slow)], routes };
    const { overview } = figuresOf(scope, deliveries);
    const rows = overview.relayers;
    const byAddr = new Map(rows.map((r) => [r.address, r]));
    expect(rows[0]!.address).toBe(slow); // watched first
    expect(byAddr.get(fast)).toMatchObject({ deliveriesLastHour: 2, deliveries24h: 3, lastDeliveryAt: NOW - MIN });
    expect(byAddr.get(fast)!.routes).toEqual([{ routeId: 'cb', deliveries: 3, share: 3 / 4 }]);
    expect(byAddr.get(slow)).toMatchObject({ deliveriesLastHour: 2, deliveries24h: 2, lastDeliveryAt: NOW - 5 * MIN });
    expect(byAddr.get(slow)!.routes).toEqual([
      { routeId: 'cb', deliveries: 1, share: 1 / 4 },
      { routeId: 'cd', deliveries: 1, share: 1 / 2 },
    ]);
    // Hour buckets, oldest first: the fast relayer's 90-min-old delivery sits two buckets before the last.
    expect(byAddr.get(fast)!.buckets).toHaveLength(24);
    expect(byAddr.get(fast)!.buckets.slice(-2)).toEqual([1, 2]);
    expect(byAddr.get(fast)!.buckets.reduce((a, b) => a + b)).toBe(3);

    const [cb, cd] = overview.routes;
    expect(cb).toMatchObject({ deliveriesLastHour: 3, deliveries24h: 4, pending: 0, oldestPendingSince: null });
    expect(cb!.topRelayers).toEqual([
      { address: fast, label: '', deliveries: 3, share: 3 / 4 },
      { address: slow, label: 'mine', deliveries: 1, share: 1 / 4 },
    ]);
    expect(cd!.deliveries24h).toBe(2);
    expect(countedMessages(scope, { relayer: fast, figure: 'deliveries24h' }, deliveries, [])).toEqual(
      [deliveries[0], deliveries[1], deliveries[2]].map((x) => x!.messageId),
    );
    expect(countedMessages(scope, { relayer: slow, routeId: 'cd', figure: 'deliveries1h' }, deliveries, [])).toEqual([deliveries[5]!.messageId]);
  });

  it('a watched reward address claims deliveries made by another deliverer address', () => {
    const deliverer = randomAddress();
    const rewards = randomAddress();
    const scope = { now: NOW, relayers: [relayer(rewards)], routes: [route('r')] };
    const deliveries = [delivery({ deliverer, rewardAddress: rewards, sentAt: NOW - 2 * MIN, deliveredAt: NOW - MIN })];
    expect(attributionOf(scope.relayers, scope.routes, deliveries[0]!)?.relayer).toBe(rewards);
    const rows = figuresOf(scope, deliveries).overview.relayers;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ address: rewards, deliveries24h: 1, rewardAddresses: [rewards] });
  });

  it('route pending count and oldest pending age come from the pending messages on that route only', () => {
    const scope = { now: NOW, relayers: [], routes: [route('cb'), route('cd', { destinationChain: DEXALOT })] };
    const waiting = [pending(NOW - 40 * MIN), pending(NOW - 5 * MIN), pending(NOW - 90 * MIN, { destination: DEXALOT })];
    const [cb, cd] = figuresOf(scope, [], waiting).overview.routes;
    expect(cb).toMatchObject({ pending: 2, oldestPendingSince: NOW - 40 * MIN, latency: null, topRelayers: [] });
    expect(cd).toMatchObject({ pending: 1, oldestPendingSince: NOW - 90 * MIN });
    expect(countedMessages(scope, { routeId: 'cb', figure: 'pending' }, [], waiting)).toEqual([waiting[1]!.messageId, waiting[0]!.messageId]);
  });
});
