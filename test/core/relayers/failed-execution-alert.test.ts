/**
 * The failed-execution alert of each watched route (src/core/relayers/failed-execution-alert.ts) over a
 * real store and the real alert timeline: it fires once when the last hour's failures reach the
 * threshold (started at the failure that reached it), resolves in words below it, is held while a chain
 * of the route is not read, and closes quietly when its alert is turned off or the route unwatched.
 */
import { describe, expect, it } from 'vitest';
import { decideFailedExecutionAlerts } from '../../../src/core/relayers/failed-execution-alert';
import type { RouteFailureCount } from '../../../src/core/relayers/route-failures';
import { ALWAYS_SEEING, type Sight } from '../../../src/core/sources/sight';
import type { WatchedRoute } from '../../../src/shared/relayers';
import { BEAM, C_CHAIN } from '../helpers';
import { useEpisodeRig } from './episode-rig';
import { route as watchedRoute } from './records';

const MIN = 60_000;
const NOW = Date.UTC(2026, 0, 1, 12);
const route = (over: Partial<WatchedRoute> = {}): WatchedRoute => watchedRoute('r1', { createdAt: 0, ...over });
/** A route's failures of the last hour at these minutes before `now`. */
const count = (r: WatchedRoute, minutesAgo: number[], now = NOW): RouteFailureCount => ({
  route: r,
  count: minutesAgo.length,
  times: minutesAgo.map((m) => now - m * MIN).sort((a, b) => a - b),
});
const blindTo = (chain: string): Sight => ({ ...ALWAYS_SEEING, sees: (c) => c !== chain });

describe('the failed-execution alert', () => {
  const rig = useEpisodeRig();

  it('fires once at the threshold, from the failure that reached it; resolves in words below it', () => {
    const { door, said } = rig();
    const judge = { door, sight: ALWAYS_SEEING, threshold: 3, own: [] };
    decideFailedExecutionAlerts(judge, [count(route(), [50, 40])], NOW);
    expect(said).toEqual([]);
    decideFailedExecutionAlerts(judge, [count(route(), [50, 40, 20, 10])], NOW);
    expect(said).toEqual([
      {
        phase: 'fire',
        key: 'failed:r1',
        title: 'Failed executions on C-Chain → Beam',
        body: '4 message(s) delivered on C-Chain → Beam in the last hour failed to execute (threshold 3): someone must call retryMessageExecution (Relayers view, Failed executions).',
        startedAt: NOW - 20 * MIN,
      },
    ]);
    decideFailedExecutionAlerts(judge, [count(route(), [45, 40, 20, 10, 1], NOW + 5 * MIN)], NOW + 5 * MIN);
    expect(said).toHaveLength(1);
    decideFailedExecutionAlerts(judge, [count(route(), [30, 20], NOW + 30 * MIN)], NOW + 30 * MIN);
    expect(said.slice(1)).toEqual([
      {
        phase: 'resolve',
        key: 'failed:r1',
        title: 'Failed executions back under the threshold: C-Chain → Beam',
        body: 'Fewer than 3 messages delivered on C-Chain → Beam in the last hour failed to execute.',
        startedAt: NOW - 20 * MIN,
      },
    ]);
    expect(door.open(['route_failed_executions']).size).toBe(0);
  });

  it('names a labelled route by its label; a threshold of 0 or a route whose alert is off never fires', () => {
    const { door, said } = rig();
    decideFailedExecutionAlerts({ door, sight: ALWAYS_SEEING, threshold: 0, own: [] }, [count(route(), [5, 4, 3])], NOW);
    decideFailedExecutionAlerts({ door, sight: ALWAYS_SEEING, threshold: 1, own: [] }, [count(route({ alert: false }), [5, 4, 3])], NOW);
    expect(said).toEqual([]);
    decideFailedExecutionAlerts({ door, sight: ALWAYS_SEEING, threshold: 1, own: [] }, [count(route({ label: 'bridge' }), [5])], NOW);
    expect(said.map((s) => s.title)).toEqual(['Failed executions on bridge']);
  });

  it('holds a route with a chain not read: no fire, no resolve, no close; judged again once read', () => {
    const { door, said } = rig();
    const seeing = { door, sight: ALWAYS_SEEING, threshold: 2, own: [] };
    const blind = { ...seeing, sight: blindTo(BEAM) };
    decideFailedExecutionAlerts(blind, [count(route(), [5, 4])], NOW);
    expect(said).toEqual([]);
    decideFailedExecutionAlerts(seeing, [count(route(), [5, 4])], NOW);
    expect(said.map((s) => s.phase)).toEqual(['fire']);
    // Below the threshold, and even its alert turned off, while Beam is not read: still open.
    decideFailedExecutionAlerts(blind, [count(route(), [])], NOW + MIN);
    decideFailedExecutionAlerts(blind, [count(route({ alert: false }), [])], NOW + MIN);
    expect(said).toHaveLength(1);
    expect([...door.open(['route_failed_executions']).keys()]).toEqual(['failed:r1']);
    decideFailedExecutionAlerts(seeing, [count(route(), [])], NOW + 2 * MIN);
    expect(said.map((s) => [s.phase, s.title !== null])).toEqual([
      ['fire', true],
      ['resolve', true],
    ]);
  });

  it('closes quietly when its alert is turned off, the threshold set to 0, or the route unwatched', () => {
    const { door, said } = rig();
    const judge = (threshold: number, counts: RouteFailureCount[], at: number) =>
      decideFailedExecutionAlerts({ door, sight: ALWAYS_SEEING, threshold, own: [] }, counts, at);
    const r2 = route({ id: 'r2', sourceChain: BEAM, destinationChain: C_CHAIN });
    const r3 = route({ id: 'r3', destinationChain: C_CHAIN });
    judge(1, [count(route(), [5]), count(r2, [5]), count(r3, [5])], NOW);
    expect(said.filter((s) => s.phase === 'fire').map((s) => s.key)).toEqual(['failed:r1', 'failed:r2', 'failed:r3']);
    judge(1, [count(route({ alert: false }), [5]), count(r3, [5])], NOW + MIN);
    expect(said.slice(3)).toEqual([
      { phase: 'resolve', key: 'failed:r1', title: null, body: null, startedAt: NOW - 5 * MIN },
      { phase: 'resolve', key: 'failed:r2', title: null, body: null, startedAt: NOW - 5 * MIN },
    ]);
    judge(0, [count(r3, [5])], NOW + 2 * MIN);
    expect(said.slice(5)).toEqual([{ phase: 'resolve', key: 'failed:r3', title: null, body: null, startedAt: NOW - 5 * MIN }]);
  });
});
