import { afterEach, describe, expect, it } from 'vitest';
import type { Stats, Transition, TransitionKind } from '../../src/shared/contract';
import { TRANSITION_KINDS } from '../../src/shared/schemas';
import { startLocalService } from '../../src/local-service';
import { computeStats, bucketSizeFor } from '../../src/core/store';
import { coreOnService } from './core-on-service';
import { JumpClock } from './http-helpers';
import { engineRig, msg, randomAddress, tempDir } from './helpers';

// 10:07:13.457 UTC: not on any bucket boundary (5 min .. 24 h).
const OFF_BOUNDARY = Date.UTC(2026, 2, 14, 10, 7, 13, 457);

const countByKind = (items: { kind: TransitionKind }[]) => Object.fromEntries(TRANSITION_KINDS.map((k) => [k, items.filter((t) => t.kind === k).length]));
const bucketTotals = (s: Stats) => Object.fromEntries(TRANSITION_KINDS.map((k) => [k, s.buckets.reduce((n, b) => n + b[k], 0)]));

describe('stats buckets', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('puts every transition into the bucket that contains its time, with a clock off the boundaries', async () => {
    const tmp = tempDir();
    const rig = engineRig(tmp.dir, new JumpClock(OFF_BOUNDARY));
    cleanups.push(
      () => tmp.cleanup(),
      () => rig.close(),
    );
    const me = randomAddress();
    rig.watch(me);
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      rig.engine.observe([msg({ from: me, status: 'pending', ts: Math.floor(rig.clock.now() / 1000) })], 'mainnet');
      times.push(rig.clock.now());
      await rig.clock.advance(47 * 60_000 + 3_001);
    }
    const s = computeStats(rig.store.db, rig.clock.now(), 6, 'local');
    const size = bucketSizeFor(6);
    expect(s.bucketMs).toBe(size);
    for (const b of s.buckets) expect(b.start % size).toBe(0);
    const expected = new Map<number, number>();
    for (const t of times) expected.set(Math.floor(t / size) * size, (expected.get(Math.floor(t / size) * size) ?? 0) + 1);
    for (const b of s.buckets) expect([b.start, b.new]).toEqual([b.start, expected.get(b.start) ?? 0]);
    expect(bucketTotals(s).new).toBe(7);
  });

  it('counts in Charts (getStats) what the Activity log (listTransitions) lists for the same range', async () => {
    const clock = new JumpClock(OFF_BOUNDARY);
    const svc = await startLocalService({ clock, rate: 1, addressCount: 12, preload: 100, warmStore: false });
    cleanups.push(() => svc.close());
    const core = await coreOnService(svc.url, clock, cleanups);
    for (const a of svc.simulator.hotAddresses.slice(0, 2)) await core.invoke('addWatch', { address: a });
    await core.invoke('pollNow', undefined);
    for (let i = 0; i < 15; i++) {
      await clock.advance(20_000 + 137);
      await core.invoke('pollNow', undefined);
    }
    const got = await core.invoke('getStats', { hours: 6 });
    if (!got.ok) throw new Error(got.error.message);
    const stats = got.value as Stats;
    const log: Transition[] = [];
    for (let before: number | undefined; ;) {
      const r = await core.invoke('listTransitions', { limit: 500, ...(before ? { beforeId: before } : {}) });
      if (!r.ok) throw new Error(r.error.message);
      const page = r.value as { items: Transition[]; nextBeforeId?: number };
      log.push(...page.items);
      if (!page.nextBeforeId) break;
      before = page.nextBeforeId;
    }
    const from = stats.buckets[0]!.start;
    const inRange = log.filter((t) => t.at >= from && t.at <= clock.now());
    expect(inRange.length).toBeGreaterThan(10);
    expect(bucketTotals(stats)).toEqual(countByKind(inRange));
  });
});
