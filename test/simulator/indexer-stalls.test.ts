/** The lag's long tail: rare indexer stalls of 30-120 minutes, then a catch-up out of timestamp order. */
import { describe, expect, it } from 'vitest';
import type { RecordChange } from '../../src/local-service/index';
import { MAX_LAG_MS } from '../../src/simulator/index-lag';
import { CATCH_UP_MS, IndexerStalls, STALL_MAX_MS, STALL_MIN_MS } from '../../src/simulator/indexer-stalls';
import { Rng } from '../../src/shared/rng';
import { TrafficSimulator } from '../../src/simulator/simulator';
import { get, serve } from '../local-service/helpers';

const START = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;
/** The simulator is stepped 10 s at a time: a change is written within a tick of its time. */
const TICK = 10_000;

describe('the stall schedule', () => {
  it('is rare (a few a day), 30-120 minutes each, and the same for the same seed', () => {
    const stalls = new IndexerStalls(new Rng(11), START).until(START + 60 * DAY);
    expect(stalls.length / 60).toBeGreaterThan(1.5);
    expect(stalls.length / 60).toBeLessThan(4.5);
    for (const s of stalls) {
      expect(s.end - s.start).toBeGreaterThanOrEqual(STALL_MIN_MS);
      expect(s.end - s.start).toBeLessThanOrEqual(STALL_MAX_MS);
      expect(s.start).toBeGreaterThan(START);
    }
    for (let i = 1; i < stalls.length; i++) expect(stalls[i]!.start).toBeGreaterThan(stalls[i - 1]!.end);
    expect(new IndexerStalls(new Rng(11), START).until(START + 60 * DAY)).toEqual(stalls);
  });

  it('holds a change due inside a stall until after it, and leaves other changes alone', () => {
    const schedule = new IndexerStalls(new Rng(5), START);
    const [s] = schedule.until(START + 30 * DAY);
    expect(s).toBeDefined();
    const inside = s!.start + 10 * 60_000;
    const at = schedule.visibleAt('chainA', inside - 3_000, inside);
    expect(at).toBeGreaterThanOrEqual(s!.end);
    expect(at).toBeLessThanOrEqual(s!.end + CATCH_UP_MS);
    // A change due before the stall began, or after it ended, is not moved.
    expect(schedule.visibleAt('chainA', s!.start - 5_000, s!.start - 1)).toBe(s!.start - 1);
    expect(schedule.visibleAt('chainA', s!.end, s!.end + 1)).toBe(s!.end + 1);
  });
});

/** The realistic world's simulator, stepped by hand TICK at a time (no store, no timers: fast); every change it writes. */
function realisticWorld(rate: number, stalls: boolean) {
  const changes: RecordChange[] = [];
  const sim = new TrafficSimulator({
    seed: 1,
    rate,
    speed: 1,
    startMs: START,
    sink: (batch) => changes.push(...batch),
    world: { lag: true, sparseRoutes: true, messengerVersions: 2, receiptResends: false, stalls },
  });
  const run = (ms: number) => {
    for (let t = 0; t < ms; t += TICK) sim.step(TICK);
  };
  return { sim, changes, run };
}

describe('a world with stalls', () => {
  it('lists nothing new during a stall, then everything it held, out of timestamp order, each record in order', () => {
    const { sim, changes, run } = realisticWorld(0.1, true);
    // Run until the first stall and its catch-up are over.
    const first = () => sim.stalls(sim.now() + 3 * DAY)[0]!;
    while (sim.now() < first().end + CATCH_UP_MS + 60_000) run(30 * 60_000);
    const stall = first();
    // During the stall nothing is written (a tick at most after it began).
    expect(changes.filter((c) => c.visibleAt > stall.start + TICK && c.visibleAt < stall.end)).toEqual([]);
    // What happened during it is written in the catch-up, within CATCH_UP_MS (plus a tick) of its end.
    const held = changes.filter((c) => c.happenedAt >= stall.start && c.happenedAt < stall.end);
    // (0.1 messages a second, each with a send and most with a delivery)
    expect(held.length).toBeGreaterThan(0.1 * ((stall.end - stall.start) / 1000));
    for (const c of held) {
      expect(c.visibleAt).toBeGreaterThanOrEqual(stall.end);
      // (or its own usual lag, for a change near the end with a long one)
      expect(c.visibleAt).toBeLessThanOrEqual(Math.max(stall.end + CATCH_UP_MS, c.happenedAt + MAX_LAG_MS) + TICK);
    }
    // Changes from early in the stall come out at least 30 minutes late.
    expect(held.filter((c) => c.visibleAt - c.happenedAt >= 30 * 60_000).length).toBeGreaterThan(0);
    // Out of timestamp order: a change written after another that happened later.
    const byVisible = [...held].sort((a, b) => a.visibleAt - b.visibleAt);
    let overtaken = 0;
    let latest = -Infinity;
    for (const c of byVisible) {
      if (c.happenedAt < latest) overtaken++;
      latest = Math.max(latest, c.happenedAt);
    }
    expect(overtaken).toBeGreaterThan(10);
    // Each record's changes still in the order they happened.
    const last = new Map<string, RecordChange>();
    for (const c of changes) {
      const prev = last.get(String(c.record.messageId));
      if (prev) expect(c.visibleAt).toBeGreaterThanOrEqual(prev.visibleAt);
      last.set(String(c.record.messageId), c);
    }
    // Outside stalls the usual lag: at most 10 minutes (plus a tick).
    const outside = changes.filter((c) => c.happenedAt < stall.start - 10 * 60_000);
    expect(outside.length).toBeGreaterThan(0);
    for (const c of outside) expect(c.visibleAt - c.happenedAt).toBeLessThanOrEqual(MAX_LAG_MS + TICK);
  });

  it('is off unless asked for, and leaves the traffic as it was', () => {
    // The stalled world runs until its first stall is over, the plain one as long.
    const stalled = realisticWorld(0.1, true);
    const stallEnd = stalled.sim.stalls(START + 3 * DAY)[0]!.end;
    stalled.run(stallEnd + 15 * 60_000 - START);
    const plain = realisticWorld(0.1, false);
    plain.run(stalled.sim.now() - START);
    expect(plain.sim.stalls()).toEqual([]);
    expect(Math.max(...plain.changes.map((c) => c.visibleAt - c.happenedAt))).toBeLessThanOrEqual(MAX_LAG_MS + TICK);
    // Same records, same happening times: only when they become visible differs.
    const key = (c: RecordChange) => `${String(c.record.messageId)}|${String(c.record.status)}|${String(c.record.receiptDelivered)}|${c.happenedAt}`;
    const b = new Set(stalled.changes.map(key));
    const before = plain.changes.filter((c) => c.happenedAt < stallEnd);
    expect(before.length).toBeGreaterThan(500);
    for (const c of before) expect(b.has(key(c))).toBe(true);
    expect(stalled.changes.some((c) => c.visibleAt - c.happenedAt > 30 * 60_000)).toBe(true);
  });
});

describe('the service option', () => {
  it('is off by default, also in the realistic profile, and /_local/info says when it is on', async () => {
    const world = async (o: Parameters<typeof serve>[0]) =>
      ((await get(`${(await serve(o)).url}/_local/info`)).json as { world: Record<string, unknown> }).world;
    expect(await world({ realistic: true })).toMatchObject({ stalls: false, lag: true });
    expect(await world({ realistic: true, stalls: true })).toMatchObject({ stalls: true, lag: true });
  });
});
