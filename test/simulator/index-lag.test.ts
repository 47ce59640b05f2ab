/** Indexing lag: changes become visible late (a long-tailed, seeded distribution), each record's changes in order. */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import type { RecordChange } from '../../src/local-service/index';
import { BLOCK_MS, BlockLags, drawLagMs, MAX_LAG_MS } from '../../src/simulator/index-lag';
import { Rng } from '../../src/shared/rng';
import { DEMO_ROUTE_MAX_LAG_MS } from '../../src/simulator/demo-day-draws';
import { TrafficSimulator } from '../../src/simulator/simulator';
import { resolveWorldOptions } from '../../src/simulator/world-options';
import { get, serve } from '../local-service/helpers';

const START = Date.UTC(2026, 0, 1);

async function record(options: Parameters<typeof serve>[0], minutes: number) {
  const clock = new ManualClock(START);
  const s = await serve({ clock, rate: 10, ...options });
  const changes: RecordChange[] = [];
  s.onRecordChange((batch) => changes.push(...batch));
  for (let t = 0; t < minutes * 60; t += 30) await clock.advance(30_000);
  return { s, clock, changes };
}

describe('the lag distribution', () => {
  it('has a long tail: ~95 % a few seconds, ~4 % tens of seconds, ~0.5 % minutes, at most 10 minutes', () => {
    const rng = new Rng(7);
    const lags = Array.from({ length: 200_000 }, () => drawLagMs(rng));
    const share = (f: (ms: number) => boolean) => lags.filter(f).length / lags.length;
    expect(share((l) => l < 10_000)).toBeCloseTo(0.955, 2);
    expect(share((l) => l >= 10_000 && l <= 60_000)).toBeCloseTo(0.04, 2);
    expect(share((l) => l >= 120_000)).toBeGreaterThan(0.004);
    expect(share((l) => l >= 120_000)).toBeLessThan(0.006);
    expect(lags.reduce((a, b) => Math.max(a, b))).toBeLessThanOrEqual(MAX_LAG_MS);
    expect(lags.reduce((a, b) => Math.min(a, b))).toBeGreaterThanOrEqual(500);
  });

  it('is one per block: changes on one chain in one block share it, other blocks draw their own', () => {
    const lags = new BlockLags(new Rng(3));
    const t = Date.UTC(2026, 0, 1);
    const first = lags.lagOf('chainA', t);
    expect(lags.lagOf('chainA', t + BLOCK_MS - 1)).toBe(first);
    const others = [lags.lagOf('chainB', t), ...Array.from({ length: 20 }, (_, i) => lags.lagOf('chainA', t + (i + 1) * BLOCK_MS))];
    expect(others.some((l) => l !== first)).toBe(true);
  });
});

describe('indexing lag', () => {
  it('makes most changes visible within seconds, a few after tens of seconds and a fraction after minutes', async () => {
    const { changes } = await record({ lag: true }, 8);
    const lags = changes.map((c) => c.visibleAt - c.happenedAt);
    const share = (f: (ms: number) => boolean) => lags.filter(f).length / lags.length;
    expect(lags.length).toBeGreaterThan(10_000);
    expect(share((l) => l < 10_000)).toBeGreaterThan(0.9);
    expect(share((l) => l >= 10_000 && l < 120_000)).toBeGreaterThan(0.01);
    // Lags of minutes are rare (a late block), and those that end after the run are not seen yet.
    expect(lags.filter((l) => l >= 120_000).length).toBeGreaterThan(0);
    expect(Math.max(...lags)).toBeLessThanOrEqual(MAX_LAG_MS + 5_000);
    expect(Math.min(...lags)).toBeGreaterThanOrEqual(0);
  });

  it('writes records out of their timestamp order, each record’s changes in the order they happened', async () => {
    const { changes } = await record({ lag: true }, 6);
    // Some change became visible after a change that happened later.
    const byVisible = [...changes].sort((a, b) => a.visibleAt - b.visibleAt);
    let overtaken = 0;
    let latestHappened = -Infinity;
    for (const c of byVisible) {
      if (c.happenedAt < latestHappened - 10_000) overtaken++;
      latestHappened = Math.max(latestHappened, c.happenedAt);
    }
    expect(overtaken).toBeGreaterThan(10);
    // Per record: visible in the order the changes happened, never a later state before an earlier one.
    const last = new Map<string, RecordChange>();
    for (const c of changes) {
      const id = c.record.messageId as string;
      const prev = last.get(id);
      if (prev) {
        expect(c.happenedAt).toBeGreaterThanOrEqual(prev.happenedAt);
        expect(c.visibleAt).toBeGreaterThanOrEqual(prev.visibleAt);
      }
      last.set(id, c);
    }
  });

  it('without the option writes every change when it happens (at most a tick later)', async () => {
    const { changes } = await record({}, 3);
    expect(changes.length).toBeGreaterThan(1000);
    for (const c of changes) expect(c.visibleAt - c.happenedAt).toBeLessThanOrEqual(1_000);
  });

  it('holds a record sent with lagMs out of the list until its lag has passed, and reports it before writing it', async () => {
    const clock = new ManualClock(START);
    const s = await serve({ clock });
    const seen: { change: RecordChange; stored: boolean }[] = [];
    s.onRecordChange((batch) => {
      for (const change of batch) seen.push({ change, stored: s.store.get(change.record.messageId as string)?.status === change.record.status });
    });
    const id = s.simulator.send({ lagMs: 30_000, deliveryDelayMs: 5_000 });
    await clock.advance(29_000);
    expect((await get(`${s.url}/v1/teleporter/messages/${id}`)).status).toBe(404);
    expect(seen).toHaveLength(0);
    await clock.advance(2_000);
    expect(((await get(`${s.url}/v1/teleporter/messages/${id}`)).json as { status: string }).status).toBe('pending');
    await clock.advance(5_000);
    expect(s.store.get(id)?.status).toBe('delivered');
    expect(seen.map((x) => [x.change.record.status, x.change.happenedAt - START, x.stored])).toEqual([
      ['pending', 0, false],
      ['delivered', 5_000, false],
    ]);
    expect(seen[0]!.change.visibleAt - START).toBeGreaterThanOrEqual(30_000);
    expect(seen[1]!.change.visibleAt - START).toBeGreaterThanOrEqual(35_000);
  });

  it('is reported by /_local/info, with the profile', async () => {
    const plain = (await get(`${(await serve()).url}/_local/info`)).json as { world: Record<string, unknown> };
    expect(plain.world).toMatchObject({ lag: false, receiptResends: true });
    const real = (await get(`${(await serve({ realistic: true, rateLimitPerMinute: undefined })).url}/_local/info`)).json as {
      world: Record<string, unknown>;
      computeUnits: unknown;
    };
    expect(real.world).toEqual({
      lag: true,
      looseOrder: true,
      sparseRoutes: true,
      messengerVersions: 2,
      receiptResends: false,
      dryWallet: false,
      stalls: false,
      demoDay: null,
    });
    expect(real.computeUnits).toEqual({ keyed: { cuPerMinute: 8000, cuPerDay: 2_000_000 }, anonymous: { cuPerMinute: 6000, cuPerDay: 1_200_000 } });
    const mixed = (await get(`${(await serve({ realistic: true, lag: false })).url}/_local/info`)).json as { world: Record<string, unknown> };
    expect(mixed.world).toMatchObject({ lag: false, looseOrder: true });
  });
});

describe('on the demo day', () => {
  it("cuts the lag of the demo routes' changes to a minute, and leaves the minutes-long tail everywhere else", () => {
    const changes: RecordChange[] = [];
    const sim = new TrafficSimulator({
      seed: 4,
      rate: 5,
      speed: 1,
      startMs: START,
      sink: (batch) => changes.push(...batch),
      world: resolveWorldOptions({ demoDay: true }, { realistic: true, looseOrder: true }).world,
    });
    // Two hours, 10 s at a time: about 36,000 messages, a few thousand blocks per chain.
    for (let t = 0; t < 2 * 3_600_000; t += 10_000) sim.step(10_000);
    // The demo routes: the ones the demo's named relayers list (the steady two take every other route).
    const named = sim.demoRelayers().filter((r) => r.behaviour !== 'steady');
    const demo = new Set(named.flatMap((r) => r.routes.map((x) => `${x.source}>${x.destination}`)));
    expect(demo.size).toBe(2);
    const late = (c: RecordChange) => c.visibleAt - c.happenedAt;
    const onDemo = (c: RecordChange) => demo.has(`${String(c.record.sourceBlockchainId)}>${String(c.record.destinationBlockchainId)}`);
    const demoChanges = changes.filter(onDemo);
    const others = changes.filter((c) => !onDemo(c));
    expect(demoChanges.length).toBeGreaterThan(1_000);
    // A tick at most past the cut (a change is written on the step after its time).
    expect(Math.max(...demoChanges.map(late))).toBeLessThanOrEqual(DEMO_ROUTE_MAX_LAG_MS + 10_000);
    // The tens of seconds stay on the demo routes; minutes stay elsewhere.
    expect(demoChanges.some((c) => late(c) > 20_000)).toBe(true);
    expect(others.some((c) => late(c) > 2 * 60_000)).toBe(true);
  });
});
