/**
 * A run's physical limit: the fewest requests a poller reading once every poll interval could make to
 * see every expected transition in the first cycle after it became visible (`stuck` needs no read: it
 * is a pending message's age). Computed after the run from the ground truth's expected transitions and
 * the service's store, cycle by cycle:
 * - the list is the unfiltered mainnet list, newest first, 100 records a page (what the pollers read). A
 *   record's page at a cycle is its rank among the mainnet records stored by then (the store's sort
 *   positions; a record is stored from when it first became visible), over 100, rounded up;
 * - a record first visible in the cycle (a `new` transition) can only be found on the list: the cycle
 *   reads down to the deepest such page, and at least the head page (that nothing is new is known only
 *   by asking);
 * - a record already known (seen before the baseline or in an earlier cycle) that changed in the cycle
 *   (left pending, receipt) is seen by reading the list down to its page, or by one by-ID request: the
 *   cycle reads the list to the depth D that makes D + (known changed records below page D) least.
 * Baselines are left out on both sides (a silent first read whose depth the stuck threshold sets, not
 * news): compare it with the requests after the baseline. A record whose sort time changed (its source
 * became known) moved in the list; it is ranked at its final position (rare: a page off at most).
 */
import type { RecordStore } from '../src/local-service/store/record-store';
import { NET_CODES } from '../src/local-service/store/schema';
import { PLAN_LIMITS, REQUEST_CU, type PlanName } from '../src/shared/plans';
import { DAY_MINUTES } from '../src/shared/time';
import type { ExpectedTransition, GroundTruth } from '../test/support/ground-truth';

const PAGE = 100;

export interface PhysicalLimit {
  requests: number;
  listPages: number;
  byId: number;
  cycles: number;
  /** Requests a minute over the cycles (rounded to 0.1 for show; `keepsUp` uses the exact figure). */
  perMinute: number;
  minutes: number;
}

/** Records ahead of `pos` in a list sorted ascending (binary search). */
function countAbove(sortedAsc: readonly number[], pos: number): number {
  let lo = 0;
  let hi = sortedAsc.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sortedAsc[mid]! <= pos) lo = mid + 1;
    else hi = mid;
  }
  return sortedAsc.length - lo;
}

/** The least of D + (pages below D) over D ≥ `floor` (each known record's page, one by-ID read each). */
function cheapestCut(floor: number, knownPages: readonly number[]): { pages: number; byId: number } {
  const candidates = [floor, ...knownPages.filter((p) => p > floor)];
  let best = { pages: floor, byId: knownPages.filter((p) => p > floor).length };
  for (const d of candidates) {
    const byId = knownPages.filter((p) => p > d).length;
    if (d + byId < best.pages + best.byId) best = { pages: d, byId };
  }
  return best;
}

/** `cycleTimes`: each poll after the baseline, ascending (clock ms). */
export function physicalLimit(
  store: RecordStore,
  truth: GroundTruth,
  expected: ReadonlyMap<string, ExpectedTransition>,
  cycleTimes: readonly number[],
  intervalMs: number,
): PhysicalLimit {
  const rows = store.attach((db) =>
    db.prepare<[number], { id: string; pos: number }>('SELECT message_id AS id, pos FROM messages WHERE net = ?').all(NET_CODES.mainnet),
  );
  const posOf = new Map<string, number>();
  const before: number[] = [];
  const during: { pos: number; at: number }[] = [];
  for (const r of rows) {
    posOf.set(r.id, r.pos);
    const h = truth.history(r.id);
    // Stored before the truth listened (the preload), or from its first visible change.
    const at = !h || h.prior ? -Infinity : (h.steps[0]?.visibleAt ?? -Infinity);
    if (at === -Infinity) before.push(r.pos);
    else during.push({ pos: r.pos, at });
  }
  before.sort((a, b) => a - b);

  // Each cycle's changed records: the ones first visible in it (found on the list only) and the known ones.
  const perCycle = cycleTimes.map(() => ({ fresh: new Set<string>(), known: new Set<string>() }));
  for (const [key, e] of expected) {
    const [id, kind] = key.split(':') as [string, string];
    if (kind === 'stuck') continue;
    const i = cycleTimes.findIndex((t) => t >= e.visibleAt);
    if (i < 0) continue;
    (kind === 'new' ? perCycle[i]!.fresh : perCycle[i]!.known).add(id);
  }

  let listPages = 0;
  let byId = 0;
  cycleTimes.forEach((t, i) => {
    const stored = during
      .filter((d) => d.at <= t)
      .map((d) => d.pos)
      .sort((a, b) => a - b);
    const page = (id: string) => {
      const pos = posOf.get(id);
      return pos === undefined ? 1 : Math.ceil((1 + countAbove(before, pos) + countAbove(stored, pos)) / PAGE);
    };
    const { fresh, known } = perCycle[i]!;
    const floor = Math.max(1, ...[...fresh].map(page));
    const cut = cheapestCut(floor, [...known].filter((id) => !fresh.has(id)).map(page));
    listPages += cut.pages;
    byId += cut.byId;
  });
  const minutes = (cycleTimes.length * intervalMs) / 60_000;
  const requests = listPages + byId;
  return { requests, listPages, byId, cycles: cycleTimes.length, perMinute: Math.round((requests / minutes) * 10) / 10, minutes };
}

/** Whether the plan keeps up: the physical limit's CU a minute within the plan's day pace (no plan: it does). */
export function keepsUp(limit: PhysicalLimit, plan: PlanName | null): boolean {
  if (!plan) return true;
  return (limit.requests * REQUEST_CU) / limit.minutes <= PLAN_LIMITS[plan].cuPerDay / DAY_MINUTES;
}

/** The limit as a bench's JSON line prints it: beside the core's requests after its baseline, with their ratio. */
export function physicalFigures(limit: PhysicalLimit, keeps: boolean, oursAfterBaseline: number) {
  return { ...limit, keepsUp: keeps, oursAfterBaseline, oursOverPhysical: Math.round((oursAfterBaseline / Math.max(1, limit.requests)) * 100) / 100 };
}
