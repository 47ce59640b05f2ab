/**
 * The monitor's stated limits (docs/limits.md) as the benches judge them: from the service's store and
 * the ground truth, never the monitor's counters, on the one expected map every contender is judged by.
 * A transition under a limit is either way; when not reported it is counted by the limit's name
 * (Comparison.limits) and printed, never silent:
 * - `baseline-reach`: the `stuck` (or the receipt, when delivered before the watch began) of a message
 *   sent before the watch began that lies below the first BASELINE_MAX_PAGES pages of each watched list
 *   it is on, as that list stood when its watch went live
 *   (a first read goes no deeper, the news on top of the list included; the Watchlist row says where its
 *   history was cut);
 * - `baseline-receipt`: a receipt back after the watch began for a message delivered before it, visible
 *   while one of its watches was still `baselining…`: that baseline may meet the message only with its
 *   receipt, and a record carries no time for its receipt.
 * When a watch went live is what the Watchlist showed (its `baselining…` tag), not a count of the monitor's.
 */
import { BASELINE_MAX_PAGES } from '../src/shared/policy';
import type { ExpectedTransition, GroundTruth } from '../test/support/ground-truth';

const PAGE = 100;

interface ListStore {
  page(q: { address: string }, before: number | undefined, limit: number): { records: string[]; positions: number[]; hasMore: boolean };
  get(messageId: string): Record<string, unknown> | undefined | null;
}

export interface LimitInputs {
  store: ListStore;
  truth: GroundTruth;
  baselineAt: number;
  /** When each watched address went live (its baseline done, the run's end if never), as the Watchlist showed it. */
  liveAt: (address: string) => number;
  /** The watched addresses (none: routes, whose history reads are judged by their own rows). */
  addresses: readonly string[];
}

const sourceTs = (r: Record<string, unknown> | null | undefined): number | null => {
  const t = (r?.sourceTransaction as { timestamp?: unknown } | undefined)?.timestamp;
  return typeof t === 'number' ? t : null;
};
const deliveredTs = (r: Record<string, unknown> | null | undefined): number | null => {
  const t = (r?.destinationTransaction as { timestamp?: unknown } | undefined)?.timestamp;
  return typeof t === 'number' ? t : null;
};
/** Where the list sorts a record: its source time, or its delivery's when its source is not indexed. */
const sentTs = (r: Record<string, unknown> | null | undefined): number | null => sourceTs(r) ?? deliveredTs(r);

/** Source time (s) of the last record a first read of this address's list reaches: its BASELINE_MAX_PAGES-th page's last (null: the list is shorter). */
function reachOf(address: string, o: LimitInputs): number | null {
  const live = o.liveAt(address);
  const visibleAtBaseline = (id: string) => {
    const h = o.truth.history(id);
    return !h || h.prior !== null || (h.steps[0]?.visibleAt ?? Infinity) < live;
  };
  let before: number | undefined;
  let n = 0;
  for (;;) {
    const page = o.store.page({ address }, before, 500);
    for (const raw of page.records) {
      const r = JSON.parse(raw) as Record<string, unknown>;
      if (!visibleAtBaseline(String(r.messageId))) continue;
      if (++n === BASELINE_MAX_PAGES * PAGE) return sentTs(r);
    }
    if (!page.hasMore || !page.positions.length) return null;
    before = page.positions[page.positions.length - 1];
  }
}

/** Marks the expected transitions each stated limit covers (in place); returns how many each covers. */
export function markStatedLimits(expected: Map<string, ExpectedTransition>, o: LimitInputs): Record<string, number> {
  const reach = new Map(o.addresses.map((a) => [a.toLowerCase(), reachOf(a, o)] as const));
  const covered: Record<string, number> = {};
  const mark = (key: string, e: ExpectedTransition, limit: string) => {
    expected.set(key, { ...e, limit });
    covered[limit] = (covered[limit] ?? 0) + 1;
  };
  for (const [key, e] of expected) {
    const [id, kind] = key.split(':') as [string, string];
    const r = o.store.get(id);
    const sent = sentTs(r);
    const lists = [r?.from, r?.to].map((x) => String(x).toLowerCase()).filter((x) => reach.has(x));
    const beyondReach = sent !== null && sent * 1000 < o.baselineAt && lists.length > 0 && lists.every((a) => reach.get(a) != null && sent < reach.get(a)!);
    const delivered = deliveredTs(r);
    const deliveredBefore = delivered !== null && delivered * 1000 < o.baselineAt;
    if ((kind === 'stuck' || (kind === 'receipt_delivered' && deliveredBefore)) && beyondReach) mark(key, e, 'baseline-reach');
    else if (kind === 'receipt_delivered' && deliveredBefore && lists.some((a) => e.visibleAt < o.liveAt(a))) mark(key, e, 'baseline-receipt');
  }
  return covered;
}
