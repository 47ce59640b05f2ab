/**
 * Relayers with distinct behaviour, each seen in the records alone: the fast one's latency under the
 * slow one's, no delivery by the outage relayer inside its outage (its messages delivered after it),
 * the takeover relayer's share going from none to most; /_local/info names them.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { CHAIN_REGISTRY } from '../../src/shared/chains';
import { toChecksumAddress } from '../../src/shared/validators';
import type { RecordChange, RelayerSchedule } from '../../src/local-service/index';
import { get, serve } from '../local-service/helpers';

type Rec = Record<string, unknown>;
const START = Date.UTC(2026, 0, 1);
const MIN = 60_000;
const mainnet = CHAIN_REGISTRY.chains.filter((c) => c.network === 'mainnet');
const C = mainnet[0]!.blockchainId;
const L1 = mainnet[1]!.blockchainId;
const L2 = mainnet[2]!.blockchainId;

interface Delivery {
  relayer: string;
  route: string;
  sentAt: number;
  deliveredAt: number;
}

/** Runs a service for `minutes` on a manual clock; returns every delivery (from the records) and the service. */
async function run(minutes: number, options: Parameters<typeof serve>[0] = {}) {
  const clock = new ManualClock(START);
  const s = await serve({ clock, seed: 5, rate: 5, ...options });
  const deliveries: Delivery[] = [];
  const sent = new Map<string, string>();
  s.onRecordChange((batch: readonly RecordChange[]) => {
    for (const { record: r } of batch) {
      if (r.status === 'pending') continue;
      const dst = r.destinationTransaction as { timestamp: number; delivererAddress: string };
      const src = r.sourceTransaction as { timestamp: number } | undefined;
      if (!src || r.receiptDelivered || sent.has(r.messageId as string)) continue;
      sent.set(r.messageId as string, dst.delivererAddress);
      deliveries.push({
        relayer: dst.delivererAddress,
        route: `${r.sourceBlockchainId as string}>${r.destinationBlockchainId as string}`,
        sentAt: src.timestamp * 1000,
        deliveredAt: dst.timestamp * 1000,
      });
    }
  });
  for (let t = 0; t < minutes * 60; t += 30) await clock.advance(30_000);
  const info = (await get(`${s.url}/_local/info`)).json as {
    demoRelayers: { address: string; name: string; behaviour: string; description: string; routes: Rec[] }[];
  };
  const by = (name: string) => info.demoRelayers.find((r) => r.name === name)!.address;
  return { s, deliveries, info, by };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('the demo relayers (on by default)', () => {
  it('each behaves as named, seen in the records', async () => {
    const { deliveries, info, by } = await run(25);
    expect(info.demoRelayers.map((r) => [r.name, r.behaviour])).toEqual([
      ['Swift', 'fast'],
      ['Tortoise', 'slow'],
      ['Blinker', 'outage'],
      ['Usurper', 'takeover'],
      ['Steady A', 'steady'],
      ['Steady B', 'steady'],
    ]);
    for (const r of info.demoRelayers) {
      expect(toChecksumAddress(r.address)).toBe(r.address);
      expect(r.description.length).toBeGreaterThan(10);
      expect(r.routes.length).toBeGreaterThan(0);
    }
    expect(info.demoRelayers[0]!.routes).toEqual([
      { source: C, destination: L1 },
      { source: L1, destination: C },
    ]);

    const latency = (name: string) => median(deliveries.filter((d) => d.relayer === by(name)).map((d) => d.deliveredAt - d.sentAt));
    expect(latency('Swift')).toBeLessThan(latency('Tortoise'));
    expect(latency('Swift')).toBeLessThan(8_000);
    expect(latency('Tortoise')).toBeGreaterThan(30_000);

    // Blinker is out from minute 2 to 8: no delivery inside, and what it took meanwhile is delivered after.
    const blinker = deliveries.filter((d) => d.relayer === by('Blinker'));
    const outFrom = START + 2 * MIN;
    const outTo = START + 8 * MIN;
    expect(blinker.filter((d) => d.deliveredAt >= outFrom && d.deliveredAt < outTo)).toEqual([]);
    const waited = blinker.filter((d) => d.sentAt >= outFrom && d.sentAt < outTo);
    expect(waited.length).toBeGreaterThan(5);
    for (const d of waited) expect(d.deliveredAt).toBeGreaterThanOrEqual(outTo);
    expect(blinker.filter((d) => d.deliveredAt >= START + 17 * MIN && d.deliveredAt < START + 23 * MIN)).toEqual([]); // the next one, 15 min later
    expect(blinker.some((d) => d.deliveredAt < outFrom) && blinker.some((d) => d.deliveredAt >= START + 9 * MIN)).toBe(true);

    // Usurper takes Swift's share on C-Chain -> L1 from minute 5: none before, most after, Swift none there.
    const route = `${C}>${L1}`;
    const share = (name: string, from: number, to: number) => {
      const all = deliveries.filter((d) => d.route === route && d.sentAt >= from && d.sentAt < to);
      return all.filter((d) => d.relayer === by(name)).length / all.length;
    };
    expect(share('Usurper', START, START + 5 * MIN)).toBe(0);
    expect(share('Usurper', START + 5 * MIN, START + 25 * MIN)).toBeGreaterThan(0.5);
    expect(share('Swift', START + 5 * MIN, START + 25 * MIN)).toBe(0);
    expect(share('Swift', START, START + 5 * MIN)).toBeGreaterThan(0.3);

    // Other routes are the steady relayers'.
    const elsewhere = new Set(deliveries.filter((d) => !d.route.includes(L1) || !d.route.includes(C)).map((d) => d.relayer));
    expect([...elsewhere].sort()).toEqual([by('Steady A'), by('Steady B')].sort());
  });

  it('is seeded: the same seed and clock steps give the same deliveries', async () => {
    const a = (await run(4)).deliveries;
    expect(a.length).toBeGreaterThan(500);
    expect((await run(4)).deliveries).toEqual(a);
  });

  it('can be turned off: six relayers alike, none named', async () => {
    const { deliveries, info, s } = await run(2, { relayers: false });
    expect(info.demoRelayers).toEqual([]);
    expect(new Set(deliveries.map((d) => d.relayer))).toEqual(new Set(s.simulator.relayers));
  });
});

describe('a relayer schedule given as an option', () => {
  const schedule: RelayerSchedule = {
    relayers: [
      { name: 'one', behaviour: 'outage', routes: [{ source: C, destination: L2 }], share: 1, outages: [{ startMs: 3 * MIN, durationMs: 4 * MIN }] },
      {
        name: 'two',
        behaviour: 'slow',
        routes: [{ source: C, destination: L2 }],
        share: 1,
        slowdowns: [{ startMs: 5 * MIN, durationMs: 5 * MIN, factor: 10 }],
      },
      { name: 'rest', behaviour: 'steady', share: 1 },
    ],
  };

  it('runs one outage and one slow-down at the given times', async () => {
    const { deliveries, info, by } = await run(14, { relayers: schedule });
    expect(info.demoRelayers.map((r) => r.name)).toEqual(['one', 'two', 'rest']);
    const one = deliveries.filter((d) => d.relayer === by('one'));
    expect(one.filter((d) => d.deliveredAt >= START + 3 * MIN && d.deliveredAt < START + 7 * MIN)).toEqual([]);
    expect(one.filter((d) => d.deliveredAt >= START + 7 * MIN).length).toBeGreaterThan(5); // back, once only
    const two = deliveries.filter((d) => d.relayer === by('two'));
    const slowed = two.filter((d) => d.sentAt >= START + 5 * MIN && d.sentAt < START + 10 * MIN).map((d) => d.deliveredAt - d.sentAt);
    const usual = two.filter((d) => d.sentAt < START + 5 * MIN).map((d) => d.deliveredAt - d.sentAt);
    expect(median(slowed)).toBeGreaterThan(4 * median(usual));
  });

  it('is checked: a takeover must name another relayer of the schedule', async () => {
    const bad: RelayerSchedule = { relayers: [{ name: 'a', behaviour: 'takeover', share: 1, takeover: { from: 'nobody', atMs: 0 } }] };
    await expect(serve({ relayers: bad })).rejects.toThrow(/takeover/);
  });
});
