import { afterEach, describe, expect, it } from 'vitest';
import { startLocalService } from '../../src/local-service';
import { JumpClock } from '../core/http-helpers';
import { BEAM, C_CHAIN, relayerLabel, startRelayerWatcher } from './relayer-rig';
import { pollNow } from './rig';

interface Rec {
  messageId: string;
  status: string;
  sourceTransaction?: { timestamp: number };
  destinationTransaction?: { timestamp: number; delivererAddress: string };
  rewardDetails: { symbol: string; decimals: number; value: string };
}

/** One sample's value from the exposition text (NaN when absent). */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.indexOf('}'));
    const have = inside.split(',');
    if (want.every((w) => have.includes(w)) && have.length === want.length) return Number(line.slice(line.indexOf('}') + 2));
  }
  return NaN;
}

describe('relayer and route series on /metrics', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('counts deliveries, latency and rewards per watched relayer and route, and shows the backlog and silence', async () => {
    const clock = new JumpClock(Date.now());
    const svc = await startLocalService({ clock, rate: 0, warmStore: false, addressCount: 10 });
    cleanups.push(() => svc.close());
    const label = (address: string) => relayerLabel(svc, address);
    // Every simulated relayer is watched, so every delivery counts for one of them.
    // What the command prints of each alert (it has no Activity view).
    const printed: string[] = [];
    const w = await startRelayerWatcher(svc, clock, cleanups, { dirPrefix: 'tw-relayer-metrics-', backlogMinutes: 20, onAlert: (l) => printed.push(l) });
    const scrape = async () => (await fetch(w.metrics!.url)).text();

    await pollNow(w);
    for (let i = 0; i < 8; i++) svc.simulator.send({ outcome: 'normal', source: C_CHAIN, destination: BEAM, deliveryDelayMs: 3_000 * (i + 1) });
    const late = svc.simulator.send({ outcome: 'normal', source: C_CHAIN, destination: BEAM, deliveryDelayMs: 45 * 60_000 });
    await clock.advance(60_000);
    await pollNow(w);

    // The truth, from the service's own records.
    const recs = svc.store
      .page({ source: { kind: 'blockchainId', value: C_CHAIN }, destination: { kind: 'blockchainId', value: BEAM } }, undefined, 1000)
      .records.map((r) => JSON.parse(r) as Rec);
    const delivered = recs.filter((r) => r.status === 'delivered');
    expect(delivered).toHaveLength(8);
    const by = new Map<string, Rec[]>();
    for (const r of delivered)
      by.set(label(r.destinationTransaction!.delivererAddress), [...(by.get(label(r.destinationTransaction!.delivererAddress)) ?? []), r]);

    let text = await scrape();
    for (const [relayer, mine] of by) {
      expect(sample(text, 'teleporter_watch_relayer_deliveries_total', { relayer, route: 'c-beam' })).toBe(mine.length);
      expect(sample(text, 'teleporter_watch_relayer_delivery_latency_seconds_count', { relayer, route: 'c-beam' })).toBe(mine.length);
      const latencySum = mine.reduce((s, r) => s + r.destinationTransaction!.timestamp - r.sourceTransaction!.timestamp, 0);
      expect(sample(text, 'teleporter_watch_relayer_delivery_latency_seconds_sum', { relayer, route: 'c-beam' })).toBe(latencySum);
      const newest = Math.max(...mine.map((r) => r.destinationTransaction!.timestamp));
      expect(sample(text, 'teleporter_watch_relayer_last_delivery_timestamp_seconds', { relayer })).toBe(newest);
      const tokens = new Map<string, number>();
      for (const r of mine)
        tokens.set(r.rewardDetails.symbol, (tokens.get(r.rewardDetails.symbol) ?? 0) + Number(r.rewardDetails.value) / 10 ** r.rewardDetails.decimals);
      for (const [token, sum] of tokens) expect(sample(text, 'teleporter_watch_relayer_rewards_total', { relayer, token })).toBeCloseTo(sum, 9);
    }
    // A relayer with no delivery has no last-delivery sample (never a zero time).
    const idle = svc.simulator.relayers.map(label).find((r) => !by.has(r));
    if (idle) expect(sample(text, 'teleporter_watch_relayer_last_delivery_timestamp_seconds', { relayer: idle })).toBeNaN();
    const lateSent = recs.find((r) => r.messageId === late)!.sourceTransaction!.timestamp;
    expect(sample(text, 'teleporter_watch_route_pending_messages', { route: 'c-beam' })).toBe(1);
    expect(sample(text, 'teleporter_watch_route_oldest_pending_age_seconds', { route: 'c-beam' })).toBeCloseTo(clock.now() / 1000 - lateSent, 0);
    expect(sample(text, 'teleporter_watch_route_backlogged', { route: 'c-beam' })).toBe(0);

    // 25 min on: the route's backlog (20 min) holds, and each relayer that delivered is silent (10 min, 5 min pending).
    await clock.advance(25 * 60_000);
    await pollNow(w);
    text = await scrape();
    expect(sample(text, 'teleporter_watch_route_backlogged', { route: 'c-beam' })).toBe(1);
    for (const relayer of by.keys()) expect(sample(text, 'teleporter_watch_relayer_silent', { relayer })).toBe(1);
    // Nothing new was delivered: the counters did not move.
    const total = (t: string) =>
      [...by.keys()].reduce((s, relayer) => s + sample(t, 'teleporter_watch_relayer_deliveries_total', { relayer, route: 'c-beam' }), 0);
    expect(total(text)).toBe(8);

    // The console says in words what fired, by name: the route's backlog and each silent relayer, once each.
    expect(
      printed.filter((l) => l.startsWith('alert fired: Route backlog: c-beam — The oldest pending message on C-Chain → Beam is older than 20 min')),
    ).toHaveLength(1);
    expect(printed.filter((l) => l.startsWith('alert fired: Relayer silent: ')).sort()).toEqual(
      [...by.keys()].sort().map((relayer) => expect.stringMatching(new RegExp(`^alert fired: Relayer silent: ${relayer} — ${relayer} \\(0x`))),
    );
    expect(printed).toHaveLength(by.size + 1);
    for (const l of printed) for (const raw of [C_CHAIN, BEAM, 'route-backlog:', 'relayer-silent:']) expect(l).not.toContain(raw);
  });
});
