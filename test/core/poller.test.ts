import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { coreRig, type CoreRig } from './service-rig';
import { compare as judge, type ExpectedTransition } from '../support/ground-truth';
import { tempDir } from './helpers';
import type { TransitionPage } from '../../src/shared/contract';

async function scenario(rig: CoreRig, watchCount: number, trafficCycles: number, settleCycles: number) {
  // Skip the few hottest addresses so the expected set stays a readable size.
  const addrs = rig.svc.simulator.addresses.slice(5, 5 + watchCount);
  for (const a of addrs) {
    const r = await rig.core.invoke('addWatch', { address: a, network: 'mainnet', notify: { new: true } });
    expect(r.ok).toBe(true);
  }
  // Traffic pauses while baselines are taken, so "before the baseline" is one clear moment.
  rig.svc.simulator.detachClock();
  await rig.clock.advance(1);
  const baselineAt = rig.clock.now();
  // Baselines at one instant (no traffic): as many cycles as a fault profile's refusals make them take.
  const baselinesDone = async () => {
    const watches = await rig.core.invoke('listWatches', undefined);
    return watches.ok && (watches.value as { baselinePending: boolean }[]).every((w) => !w.baselinePending);
  };
  for (let i = 0; i < 10 && !(await baselinesDone()); i++) await rig.poll();
  expect(await baselinesDone()).toBe(true);
  rig.svc.simulator.attach(rig.clock);
  for (let i = 0; i < trafficCycles; i++) {
    await rig.clock.advance(10_000);
    await rig.poll();
  }
  rig.svc.simulator.detachClock(); // traffic stops; the poller catches up with the final states
  for (let i = 0; i < settleCycles; i++) {
    await rig.clock.advance(10_000);
    await rig.poll();
  }
  const expected = rig.truth.expected({ baselineAt, watched: new Set(addrs), network: 'mainnet' });
  const all: { messageId: string; kind: string }[] = [];
  let beforeId: number | undefined;
  for (;;) {
    const page = await rig.core.invoke('listTransitions', { limit: 500, ...(beforeId ? { beforeId } : {}) });
    if (!page.ok) throw new Error(page.error.message);
    const v = page.value as { items: { messageId: string; kind: string }[]; nextBeforeId?: number };
    all.push(...v.items);
    if (!v.nextBeforeId) break;
    beforeId = v.nextBeforeId;
  }
  return { expected, all };
}

/** The transition log (in the data folder) and the announced events, each judged against the ground truth. */
const compare = (rig: CoreRig, expected: Map<string, ExpectedTransition>, all: { messageId: string; kind: string }[]) => {
  const logged = judge(
    expected,
    all.map((t) => ({ id: t.messageId, kind: t.kind, at: 0 })),
  );
  const announced = judge(
    expected,
    rig.transitions.map((t) => ({ id: t.messageId, kind: t.kind, at: t.at })),
  );
  return {
    missed: logged.missed,
    extra: logged.unexpected,
    dupLogged: logged.duplicates,
    dupEvents: announced.duplicates,
    expected: expected.size,
    got: all.length,
  };
};

describe('poller against the local service', () => {
  let tmp: ReturnType<typeof tempDir>;
  let rig: CoreRig | null = null;
  beforeEach(() => {
    tmp = tempDir();
  });
  afterEach(async () => {
    await rig?.close();
    rig = null;
    tmp.cleanup();
  });

  it('fires every transition exactly once, with a silent baseline of preloaded history', async () => {
    rig = await coreRig(
      tmp.dir,
      { seed: 7, rate: 4, addressCount: 40, preload: 400, rateLimitPerMinute: { keyed: 100000, anonymous: 100000 } },
      { keychainService: `tw-test-${randomBytes(3).toString('hex')}` },
    );
    const { expected, all } = await scenario(rig, 12, 18, 8);
    const r = compare(rig, expected, all);
    expect(r.expected).toBeGreaterThan(20);
    expect(r).toEqual({ missed: [], extra: [], dupLogged: 0, dupEvents: 0, expected: r.expected, got: r.expected });
  });

  for (const faults of ['flaky', 'ratelimited', 'malformed', 'chaos,slowMs:150', 'slow:0.3,slowMs:200']) {
    it(`stays exact under the "${faults}" fault profile`, async () => {
      rig = await coreRig(
        tmp.dir,
        { seed: 11, rate: 3, addressCount: 30, preload: 200, faults, rateLimitPerMinute: { keyed: 100000, anonymous: 100000 } },
        { keychainService: `tw-test-${randomBytes(3).toString('hex')}` },
      );
      const { expected, all } = await scenario(rig, 8, 12, 8);
      const r = compare(rig, expected, all);
      expect(r.expected).toBeGreaterThan(5);
      expect(r).toEqual({ missed: [], extra: [], dupLogged: 0, dupEvents: 0, expected: r.expected, got: r.expected });
      // The faults really happened and were retried (slow answers are merely slow).
      if (!faults.startsWith('slow')) await expect.poll(() => readFileSync(join(tmp.dir, 'logs', 'core.log'), 'utf8')).toMatch(/backing off|rate limited/);
    });
  }

  it('follows a saved feed (a chain pair) through the filtered list operation', async () => {
    rig = await coreRig(
      tmp.dir,
      { seed: 3, rate: 3, addressCount: 30, preload: 200, rateLimitPerMinute: { keyed: 100000, anonymous: 100000 } },
      { keychainService: `tw-test-${randomBytes(3).toString('hex')}` },
    );
    const BEAM = '2tmrrBo1Lgt1mzzvPSFt73kkQKFas5d1AP88tv9cicwoFp8BSn';
    const r = await rig.core.invoke('addFeed', { name: 'into Beam', network: 'mainnet', filter: { destinationBlockchainId: BEAM }, notify: { new: true } });
    expect(r.ok).toBe(true);
    rig.svc.simulator.detachClock();
    await rig.clock.advance(1);
    const baselineAt = rig.clock.now();
    await rig.poll();
    rig.svc.simulator.attach(rig.clock);
    for (let i = 0; i < 12; i++) {
      await rig.clock.advance(10_000);
      await rig.poll();
    }
    rig.svc.simulator.detachClock();
    for (let i = 0; i < 8; i++) {
      await rig.clock.advance(10_000);
      await rig.poll();
    }
    const intoBeam = (r: Record<string, unknown>) => r.destinationBlockchainId === BEAM;
    const expected = rig.truth.expected({ baselineAt, watched: intoBeam, network: 'mainnet' });
    const items = (rig.core.handlers.listTransitions({ limit: 500 }) as TransitionPage).items;
    const res = compare(rig, expected, items);
    expect(res.expected).toBeGreaterThan(10);
    expect(res).toEqual({ missed: [], extra: [], dupLogged: 0, dupEvents: 0, expected: res.expected, got: res.expected });
    expect(items.every((t) => t.watchers.length === 1 && t.watchers[0]!.kind === 'feed')).toBe(true);
  });
});
