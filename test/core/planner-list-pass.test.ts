/**
 * The planner with plain values: a list baseline's pass over the unfiltered list stands for the
 * trailing sweep started with it (no second read of the same half hour), for one sweep period at most.
 */
import { describe, expect, it } from 'vitest';
import { planNetwork } from '../../src/core/poller/planner';
import { FIREHOSE_BASELINE_MIN_ADDRESSES } from '../../src/shared/policy';
import { type NetworkPlanInput } from '../../src/core/poller/plan-types';
import { TRAIL_PERIOD_MS } from '../../src/shared/policy';

const NOW_MS = 1_000_000_000;
const many = Array.from({ length: FIREHOSE_BASELINE_MIN_ADDRESSES }, (_, k) => ({ key: `M${k}`, baselineDone: false, since: NOW_MS }));

function input(o: Partial<NetworkPlanInput>): NetworkPlanInput {
  return {
    nowMs: NOW_MS,
    intervalMs: 30_000,
    head: { ts: NOW_MS / 1000 - 30, at: NOW_MS - 30_000 },
    ratePerSec: 2,
    addresses: many,
    feeds: [],
    due: [],
    addressPages: new Map(),
    overlapSec: 20,
    trail: null,
    lastTrailAt: null,
    lastDiscoveryAt: null,
    ...o,
  };
}

describe('a list baseline and the trailing sweep', () => {
  it('starts no sweep while a list baseline pages the list, for one sweep period at most', () => {
    const fresh = planNetwork(input({}));
    expect(fresh.listBaseline?.watchers).toHaveLength(FIREHOSE_BASELINE_MIN_ADDRESSES);
    expect(fresh.trail).toBeNull();
    // Going on a period later (the budget held it back): the sweep starts anyway.
    const going = { token: 'p9', pages: 9, oldestTs: null, watchers: many.map((w) => w.key) };
    const soon = planNetwork(input({ nowMs: NOW_MS + TRAIL_PERIOD_MS - 30_000, listBaselineProgress: { ...going, startedAt: NOW_MS } }));
    expect(soon.trail).toBeNull();
    const late = planNetwork(input({ nowMs: NOW_MS + TRAIL_PERIOD_MS, listBaselineProgress: { ...going, startedAt: NOW_MS } }));
    expect(late.listBaseline?.step.resumeToken).toBe('p9');
    expect(late.trail?.sweep.startedAt).toBe(NOW_MS + TRAIL_PERIOD_MS);
  });

  it('starts the sweep as before when no list baseline runs, and not within a period of the last one', () => {
    const live = many.map((w) => ({ ...w, baselineDone: true }));
    expect(planNetwork(input({ addresses: live })).trail?.sweep.startedAt).toBe(NOW_MS);
    expect(planNetwork(input({ addresses: live, lastTrailAt: NOW_MS - TRAIL_PERIOD_MS + 1 })).trail).toBeNull();
  });
});
