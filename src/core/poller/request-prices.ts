/**
 * Pure planning: how to spend requests. Three ways to see a message again: page the unfiltered list
 * operation (the "firehose" of a network, newest first, 100 per page) deep enough to reach it, ask
 * the address operation of one of its watched addresses, or ask for the message by its ID (one
 * request each). All are priced in requests; planner.ts builds a cycle's plan from these prices.
 */
import { FRESH_AGE_MS, RECHECK_MIN_INTERVALS } from '../../shared/policy';
import { ageCadence } from './age-cadence';

export const PAGE_SIZE = 100;

/** Requests per cycle to discover new messages through the firehose. */
export function firehoseHeadCost(ratePerSec: number, gapSec: number): number {
  return Math.floor((ratePerSec * gapSec) / PAGE_SIZE) + 1;
}

/**
 * Is one firehose cheaper than asking every watched list of the network? Each list costs a page a cycle at
 * least, a dense one (a few addresses carrying most of the traffic) a page per 100 of its own news.
 */
export function preferFirehose(ratePerSec: number | null, gapSec: number, addressCount: number, listRatesPerSec?: readonly number[]): boolean {
  if (ratePerSec === null) return addressCount >= 3; // one page tells us the rate; it costs less than 3 address calls
  const head = firehoseHeadCost(ratePerSec, gapSec);
  const listPages = (listRatesPerSec ?? []).reduce((sum, r) => sum + firehoseHeadCost(r, gapSec), 0);
  if (listPages > head) return true;
  return addressCount >= 3 && head < addressCount;
}

export interface RecheckCandidate {
  messageId: string;
  /** Source timestamp, seconds. */
  ts: number;
  /** The watched address to ask when not reached through the firehose. */
  address: string | null;
  /** When it was last read (ms; absent: unknown, counted as just now). */
  seenAt?: number;
}

export interface RecheckPlan {
  /** The firehose scan continues until it passes this timestamp (null: head only). */
  depthTs: number | null;
  /** Messages left to the address operation, by address. */
  byAddress: Map<string, RecheckCandidate[]>;
  /** Messages cheaper to ask for one by one: fewer of them than their address's pages, or no address at all; in fair order (fairShare). */
  byId: RecheckCandidate[];
  /** Estimated extra requests. */
  cost: number;
}

/**
 * Splits due re-checks between deepening the firehose scan (covers every message newer than a cutoff)
 * and the address operation (per address, as many pages as its own history is deep down to its
 * oldest due message) or, with `byId`, the single-message operation for an address whose few due
 * messages cost fewer requests than its pages; choosing the cutoff with the fewest requests.
 */
interface RecheckPricing {
  /** Messages per second on the unfiltered list. */
  ratePerSec: number;
  nowSec: number;
  /** Pages the firehose scan reads anyway (the head). */
  headPages: number;
  /** Pages of an address's history down to its oldest due message. */
  addressPages: (address: string) => number;
  /** The firehose is never paged deeper than this. */
  maxDepthPages?: number;
  /** Whether the single-message operation may be used. */
  byId?: boolean;
  /** Ask by ID in fair order (fairShare: echo mode, where the budget cuts them short for good); else newest first. */
  fair?: boolean;
}

export function planRechecks(cands: readonly RecheckCandidate[], p: RecheckPricing): RecheckPlan {
  const { ratePerSec, nowSec, headPages, addressPages, maxDepthPages = Infinity, byId = false } = p;
  const reachable = (ts: number) => Math.ceil((ratePerSec * Math.max(0, nowSec - ts)) / PAGE_SIZE) + 1 <= maxDepthPages;
  // A message with no watched address (a feed's) can only be reached through the list; too deep, it waits.
  const sorted = cands.filter((c) => c.address !== null || byId || reachable(c.ts)).sort((a, b) => b.ts - a.ts);
  const n = sorted.length;
  // suffixCost[k]: requests for sorted[k..] without the firehose: per address its pages (priced at its
  // oldest due message) or, by ID, one per message, whichever is less.
  const suffixCost = new Array<number>(n + 1).fill(0);
  const pagesOf = new Map<string, number>();
  const countOf = new Map<string, number>();
  const costOf = (pages: number, m: number) => (m === 0 ? 0 : byId ? Math.min(pages, m) : pages);
  for (let k = n - 1; k >= 0; k--) {
    const c = sorted[k] as RecheckCandidate;
    let add: number;
    if (c.address === null)
      add = byId ? 1 : Infinity; // the firehose, or its ID
    else {
      if (!pagesOf.has(c.address)) pagesOf.set(c.address, Math.max(1, addressPages(c.address)));
      const pages = pagesOf.get(c.address) as number;
      const m = countOf.get(c.address) ?? 0;
      countOf.set(c.address, m + 1);
      add = costOf(pages, m + 1) - costOf(pages, m);
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
  const byIdList: RecheckCandidate[] = [];
  for (const c of sorted.slice(best.k)) {
    if (c.address === null) {
      if (byId) byIdList.push(c);
      continue;
    }
    const list = byAddress.get(c.address) ?? [];
    list.push(c);
    byAddress.set(c.address, list);
  }
  for (const [address, list] of byAddress) {
    if (byId && list.length < (pagesOf.get(address) ?? 1)) {
      byIdList.push(...list);
      byAddress.delete(address);
    }
  }
  return {
    depthTs: best.k > 0 ? (sorted[best.k - 1] as RecheckCandidate).ts : null,
    byAddress: p.fair ? fairAddresses(byAddress) : byAddress,
    byId: p.fair ? fairShare(byIdList) : byIdList,
    cost: best.cost,
  };
}

/**
 * The order a budget that cuts the by-ID re-checks short asks them in: the newest and the longest unread
 * by turns, so half of what a cycle can ask goes to fresh messages (most deliveries happen then) and half
 * to old ones (newest first alone left an old pending message unread for as long as the budget stayed
 * short; longest unread first alone starved fresh ones behind a backlog of old ones).
 */
export function fairShare(list: readonly RecheckCandidate[]): RecheckCandidate[] {
  const newest = [...list].sort((a, b) => b.ts - a.ts);
  const unread = [...list].sort((a, b) => (a.seenAt ?? Infinity) - (b.seenAt ?? Infinity) || a.ts - b.ts);
  const out: RecheckCandidate[] = [];
  const taken = new Set<string>();
  for (let i = 0; out.length < list.length; i++) {
    for (const c of [newest[i], unread[i]]) {
      if (c && !taken.has(c.messageId)) {
        taken.add(c.messageId);
        out.push(c);
      }
    }
  }
  return out;
}

/**
 * The address re-checks in fairShare's order (by each address's newest and longest unread message): in
 * newest-first order alone a budget that cuts them short every cycle never reached the old ones.
 */
function fairAddresses(byAddress: ReadonlyMap<string, RecheckCandidate[]>): Map<string, RecheckCandidate[]> {
  const out = new Map<string, RecheckCandidate[]>();
  for (const c of fairShare([...byAddress.values()].flat())) if (!out.has(c.address!)) out.set(c.address!, byAddress.get(c.address!)!);
  return out;
}

/**
 * Is a tracked message due for a re-check? Fresh ones every cycle; older ones on a cadence that
 * slows with age (ageCadence: a quarter of their age, at least RECHECK_MIN_INTERVALS, at most RECHECK_MAX_MS), since each
 * re-check of an old message costs requests while it rarely changes. One more re-check comes in the
 * interval before it reaches `liveMs` (the stuck threshold), so a delivery already listed is seen
 * before `stuck` would fire.
 */
export function isDue(ageMs: number, sinceSeenMs: number, intervalMs: number, liveMs = 0): boolean {
  if (ageMs < FRESH_AGE_MS) return true;
  const beforeStuck = liveMs - intervalMs;
  if (liveMs > 0 && ageMs >= beforeStuck && ageMs < liveMs && ageMs - sinceSeenMs < beforeStuck) return true;
  const cadence = ageCadence(ageMs, RECHECK_MIN_INTERVALS * intervalMs);
  return sinceSeenMs >= cadence - intervalMs / 2;
}
