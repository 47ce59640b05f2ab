/**
 * Pure planning: how to spend requests. Two ways to see a message again: page the unfiltered list
 * operation (the "firehose" of a network, newest first, 100 per page) deep enough to reach it, or ask
 * the address operation of one of its watched addresses. Both are priced in requests.
 */

export const PAGE_SIZE = 100;

/** Requests per cycle to discover new messages through the firehose. */
export function firehoseHeadCost(ratePerSec: number, gapSec: number): number {
  return Math.floor((ratePerSec * gapSec) / PAGE_SIZE) + 1;
}

/** Is one firehose cheaper than asking every watched address of the network? */
export function preferFirehose(ratePerSec: number | null, gapSec: number, addressCount: number): boolean {
  if (addressCount < 3) return false;
  if (ratePerSec === null) return true; // one page tells us the rate; it costs less than 3 address calls
  return firehoseHeadCost(ratePerSec, gapSec) < addressCount;
}

export interface RecheckCandidate {
  messageId: string;
  /** Source timestamp, seconds. */
  ts: number;
  /** The watched address to ask when not reached through the firehose. */
  address: string | null;
}

export interface RecheckPlan {
  /** The firehose scan continues until it passes this timestamp (null: head only). */
  depthTs: number | null;
  /** Messages left to the address operation, by address. */
  byAddress: Map<string, RecheckCandidate[]>;
  /** Estimated extra requests. */
  cost: number;
}

/**
 * Splits due re-checks between deepening the firehose scan (covers every message newer than a cutoff)
 * and the address operation (per address, as many pages as its own history is deep down to its
 * oldest due message), choosing the cutoff with the fewest requests.
 */
export function planRechecks(
  cands: RecheckCandidate[],
  ratePerSec: number,
  nowSec: number,
  headPages: number,
  addressPages: (address: string, oldestTs: number) => number,
  maxDepthPages = Infinity,
): RecheckPlan {
  const reachable = (ts: number) => Math.ceil((ratePerSec * Math.max(0, nowSec - ts)) / PAGE_SIZE) + 1 <= maxDepthPages;
  // A message with no watched address (a feed's) can only be reached through the list; too deep, it waits.
  const sorted = cands.filter((c) => c.address !== null || reachable(c.ts)).sort((a, b) => b.ts - a.ts);
  const n = sorted.length;
  // suffixCost[k]: address requests for sorted[k..] (each address priced once, at its oldest due message).
  const suffixCost = new Array<number>(n + 1).fill(0);
  const priced = new Set<string>();
  for (let k = n - 1; k >= 0; k--) {
    const c = sorted[k] as RecheckCandidate;
    let add = 0;
    if (c.address === null) add = Infinity; // only the firehose can reach it
    else if (!priced.has(c.address)) {
      priced.add(c.address);
      add = Math.max(1, addressPages(c.address, c.ts));
    }
    suffixCost[k] = (suffixCost[k + 1] as number) + add;
  }
  const depthCost = (ts: number) => {
    const pages = Math.ceil((ratePerSec * Math.max(0, nowSec - ts)) / PAGE_SIZE) + 1;
    return pages > maxDepthPages ? Infinity : Math.max(0, pages - headPages);
  };
  let best = { k: 0, cost: suffixCost[0] as number };
  for (let k = 1; k <= n; k++) {
    const cost = depthCost((sorted[k - 1] as RecheckCandidate).ts) + (suffixCost[k] as number);
    if (cost < best.cost) best = { k, cost };
  }
  const byAddress = new Map<string, RecheckCandidate[]>();
  for (const c of sorted.slice(best.k)) {
    if (c.address === null) continue;
    const list = byAddress.get(c.address as string) ?? [];
    list.push(c);
    byAddress.set(c.address as string, list);
  }
  return { depthTs: best.k > 0 ? (sorted[best.k - 1] as RecheckCandidate).ts : null, byAddress, cost: best.cost };
}

/** Messages younger than this are re-checked every cycle (most deliveries and receipts happen here). */
export const FRESH_AGE_MS = 5 * 60_000;

/**
 * Is a tracked message due for a re-check? Fresh ones every cycle; older ones on a cadence that
 * slows with age (a quarter of their age, at least three intervals, at most an hour), since each
 * re-check of an old message costs deep pages while it rarely changes.
 */
export function isDue(ageMs: number, sinceSeenMs: number, intervalMs: number): boolean {
  if (ageMs < FRESH_AGE_MS) return true;
  const cadence = Math.min(3600_000, Math.max(3 * intervalMs, ageMs / 4));
  return sinceSeenMs >= cadence - intervalMs / 2;
}
