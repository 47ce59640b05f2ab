/** A watched route in the planner: read like a feed on its two chains, and what that costs (docs/data-api.md). */
import { describe, expect, it } from 'vitest';
import { planFollowUps, planNetwork } from '../../src/core/poller/planner';
import { type NetworkPlanInput, type ScanStep } from '../../src/core/poller/plan-types';
import { LatenessTracker, type TrailSweep } from '../../src/core/poller/late-records';
import { MIN_OVERLAP_S } from '../../src/shared/policy';
import { PAGE_SIZE } from '../../src/core/poller/request-prices';

const NOW_MS = 1_000_000_000;
const NOW = NOW_MS / 1000;
const ROUTE = { key: 'route:r1', baselineDone: true, filter: { sourceBlockchainId: 'SRC', destinationBlockchainId: 'DST' } };
const live = (key: string) => ({ key, baselineDone: true });

function input(o: Partial<NetworkPlanInput>): NetworkPlanInput {
  return {
    nowMs: NOW_MS,
    intervalMs: 10_000,
    head: { ts: NOW - 10, at: NOW_MS - 10_000 },
    ratePerSec: 0.1,
    addresses: [],
    feeds: [],
    due: [],
    addressPages: new Map(),
    overlapSec: MIN_OVERLAP_S,
    trail: null,
    lastTrailAt: NOW_MS,
    lastDiscoveryAt: NOW_MS - 10_000,
    ...o,
  };
}

const routeScans = (steps: readonly ScanStep[]) => steps.filter((s) => s.source.kind === 'feed');

/** Pages a route's list read takes at `rate` msg/s: down past its late-record floor, within its page cap. */
function pagesOf(step: ScanStep, nowSec: number, rate: number): number {
  if (step.stop.kind !== 'found' || step.stop.coverTs === null) return 1;
  return Math.min(step.maxPages, Math.floor((rate * (nowSec - step.stop.coverTs)) / PAGE_SIZE) + 1);
}

describe('a watched route in the planner', () => {
  it('alone (per-address mode): one list read filtered on its two chains, looking for its due messages', () => {
    const due = [{ messageId: 'm1', ts: NOW - 30, address: null, feeds: ['route:r1'] }];
    const plan = planNetwork(input({ feeds: [ROUTE], due }));
    expect(plan.discovery?.mode).toBe('per-address');
    const scans = plan.discovery!.mode === 'per-address' ? plan.discovery!.scans : [];
    expect(scans).toHaveLength(1);
    expect(scans[0]).toMatchObject({ source: { kind: 'feed', filter: ROUTE.filter }, lookFor: ['m1'] });
  });

  it('takes its baseline silently through its own list, like a feed', () => {
    const plan = planNetwork(input({ feeds: [{ ...ROUTE, baselineDone: false }], addresses: [live('A')] }));
    expect(plan.baselines).toEqual([
      expect.objectContaining({ watcher: 'route:r1', step: expect.objectContaining({ source: { kind: 'feed', filter: ROUTE.filter } }) }),
    ]);
  });

  it('costs nothing extra where the firehose is read: no route read, and its due messages the head scan sees need nothing more', () => {
    const due = [{ messageId: 'm1', ts: NOW - 30, address: null, feeds: [] }];
    const plan = planNetwork(input({ addresses: [live('A'), live('B'), live('C')], feeds: [ROUTE], due }));
    if (plan.discovery?.mode !== 'firehose') throw new Error('expected firehose mode');
    expect(plan.discovery.head).toMatchObject({ source: { kind: 'firehose' }, lookFor: ['m1'] });
    expect(plan.baselines).toEqual([]);
    expect(planFollowUps(plan.discovery, { seen: new Set(['m1']), oldestTs: NOW - 40, exhausted: false })).toEqual({ scans: [], byId: [] });
  });

  // Per-address mode at a 10 s interval, over 5 minutes (one trailing sweep): requests per minute of one route.
  it.each([
    [0.1, 6.4],
    [1, 26.4],
    [20, 248],
  ])('at %s msg/s on the route, alone it costs %s requests a minute', (rate, perMinute) => {
    const lateness = new LatenessTracker();
    const intervalMs = 10_000;
    let total = 0;
    const start = NOW_MS;
    const sweptAt = new Map([[ROUTE.key, start - 5 * 60_000]]); // its sweep is due on the first cycle, then not for 5 min
    const listSweeps = new Map<string, TrailSweep>();
    for (let c = 0; c < 30; c++) {
      const nowMs = start + c * intervalMs;
      const full = lateness.fullDue(nowMs, intervalMs);
      const plan = planNetwork(
        input({
          nowMs,
          ratePerSec: rate,
          feeds: [ROUTE],
          head: null,
          lastDiscoveryAt: nowMs - intervalMs,
          overlapSec: full ? lateness.fullOverlapSec(nowMs, intervalMs) : MIN_OVERLAP_S,
          fullOverlap: full,
          sweptAt,
          listSweeps,
        }),
      );
      if (plan.discovery?.mode !== 'per-address') throw new Error('expected per-address mode');
      if (full) lateness.fullDone(nowMs);
      const nowSec = Math.floor(nowMs / 1000);
      total += routeScans(plan.discovery.scans).reduce((n, s) => n + pagesOf(s, nowSec, rate), 0);
      for (const { list, sweep, step } of plan.discovery.sweeps) {
        // A sweep goes on below where the route's scan stopped, or from its token (here: the timestamp it reached).
        const scanStop = plan.discovery.scans.find((s) => s.list === list)!.stop;
        const fromTs = sweep.token !== null ? Number(sweep.token) : scanStop.kind === 'found' && scanStop.coverTs !== null ? scanStop.coverTs : nowSec;
        const pages = Math.max(1, Math.min(step.maxPages, Math.ceil((rate * (fromTs - sweep.floorTs)) / PAGE_SIZE)));
        total += pages;
        const reachedTs = fromTs - (pages * PAGE_SIZE) / rate;
        if (reachedTs < sweep.floorTs) {
          listSweeps.delete(list);
          sweptAt.set(list, sweep.startedAt);
        } else listSweeps.set(list, { ...sweep, token: String(reachedTs) });
      }
    }
    expect(total / 5).toBeCloseTo(perMinute, 1);
  });
});
