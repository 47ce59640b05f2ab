/**
 * A watch's baseline (its silent first read of history), planned: the addresses' through the unfiltered
 * list when that is cheaper at the list's rate, else one by one; feeds' and routes' one by one.
 */
import {
  BASELINE_HORIZON_MS,
  BASELINE_MAX_PAGES,
  DEFAULT_ROUTE_HISTORY_HOURS,
  FEED_BASELINE_HORIZON_MS,
  FIREHOSE_BASELINE_MIN_ADDRESSES,
  MAX_BASELINE_FIREHOSE_PAGES,
} from '../../shared/policy';
import { HOUR_MS } from '../../shared/time';
import { isRouteKey } from '../store/watcher-key';
import { routeReadsBackTo } from '../store/watcher-info';
import type { BaselineProgress, FeedSummary, ListOperation, NetworkPlan, NetworkPlanInput, ScanStep, WatcherSummary } from './plan-types';
import { PAGE_SIZE } from './request-prices';

/** The baselines of the watchers still waiting for one (the addresses' rate-priced, see planAddressBaselines; feeds one by one). */
export function planBaselines(i: NetworkPlanInput): Pick<NetworkPlan, 'listBaseline' | 'baselines'> {
  const pending = i.addresses.filter((a) => !a.baselineDone);
  const { listBaseline, oneByOne: addressesOneByOne } = planAddressBaselines(pending, i);
  const oneByOne = [...addressesOneByOne, ...i.feeds.filter((f) => !f.baselineDone)];
  return {
    listBaseline,
    baselines: oneByOne.map((w) => {
      const progress = i.baselineProgress?.get(w.key) ?? null;
      return { watcher: w.key, step: baselineStep(w, progress, i.nowMs, i.routeHistoryMs ?? DEFAULT_ROUTE_HISTORY_HOURS * HOUR_MS), progress };
    }),
  };
}

/**
 * The addresses' baselines: the list baseline in progress goes on for those of its addresses still
 * waiting; a new one starts when FIREHOSE_BASELINE_MIN_ADDRESSES or more wait, or when its pages (priced at the
 * list's rate) are no more than the addresses' own lists would cost at one page each; otherwise they are
 * taken one by one (with a list baseline going on, as many as would make a new one wait for it). With
 * the rate unknown, one by one (planNetwork lets the executor choose again once its head read measured it).
 */
function planAddressBaselines(
  pending: readonly WatcherSummary[],
  i: NetworkPlanInput,
): { listBaseline: NetworkPlan['listBaseline']; oneByOne: readonly WatcherSummary[] } {
  const going = i.listBaselineProgress ?? null;
  const inGoing = new Set(going?.watchers ?? []);
  const continuing = pending.filter((w) => inGoing.has(w.key));
  if (going && continuing.length) {
    const rest = pending.filter((w) => !inGoing.has(w.key));
    return { listBaseline: planListBaseline(continuing, i.nowMs, going), oneByOne: rest.length >= FIREHOSE_BASELINE_MIN_ADDRESSES ? [] : rest };
  }
  if (pending.length >= FIREHOSE_BASELINE_MIN_ADDRESSES) return { listBaseline: planListBaseline(pending, i.nowMs, null), oneByOne: [] };
  const rate = i.ratePerSec === null ? null : Math.max(i.ratePerSec, i.densityPerSec ?? 0);
  if (rate !== null && pending.length > 1 && listBaselinePages(pending, i.nowMs, rate) <= pending.length)
    return { listBaseline: planListBaseline(pending, i.nowMs, null), oneByOne: [] };
  return { listBaseline: null, oneByOne: pending };
}

/** The pages of a list baseline for these watchers at `rate` messages a second: down to BASELINE_HORIZON_MS before the earliest was added. */
export function listBaselinePages(pending: readonly WatcherSummary[], nowMs: number, rate: number): number {
  const since = Math.min(nowMs, ...pending.map((w) => w.since ?? nowMs));
  return Math.ceil((rate * (nowMs - since + BASELINE_HORIZON_MS)) / 1000 / PAGE_SIZE) + 1;
}

/**
 * Many baselines at once: page the unfiltered list back through history (up to BASELINE_HORIZON_MS,
 * and never more pages than the addresses could cost one by one), going on from where the budget
 * stopped it. Everything older than where it stopped is history for all of them.
 */
function planListBaseline(pending: readonly WatcherSummary[], nowMs: number, progress: BaselineProgress | null): NonNullable<NetworkPlan['listBaseline']> {
  const watchers = pending.map((w) => w.key);
  const since = Math.min(nowMs, ...pending.map((w) => w.since ?? nowMs));
  const horizon = Math.floor((since - BASELINE_HORIZON_MS) / 1000);
  const step: ScanStep = {
    source: { kind: 'firehose' },
    maxPages: Math.max(1, Math.min(pending.length * BASELINE_MAX_PAGES, MAX_BASELINE_FIREHOSE_PAGES) - (progress?.pages ?? 0)),
    baselineFor: watchers,
    stop: { kind: 'past', ts: horizon, undated: 'continue' },
    ...(progress ? { resumeToken: progress.token } : {}),
  };
  return { watchers, step, progress };
}

/**
 * One watcher's recent history, read silently from where the budget stopped it: open messages in it are
 * tracked from now on. An address's or feed's while its pages hold open messages (BASELINE_HORIZON_MS or
 * FEED_BASELINE_HORIZON_MS before it was added at most); a route's in full, `routeHistoryMs` back, or to its `historyFrom` (its
 * figures and backlog count from there: a message pending since before is not followed; the grid's
 * busy routes hold pending messages all day long, so reading on while pages hold one read a whole day).
 */
function baselineStep(w: WatcherSummary | FeedSummary, progress: BaselineProgress | null, nowMs: number, routeHistoryMs: number): ScanStep {
  const source: ListOperation = 'filter' in w ? { kind: 'feed', filter: w.filter } : { kind: 'address', address: w.key };
  const since = w.since ?? nowMs;
  const sec = (ms: number) => Math.floor(ms / 1000);
  return {
    source,
    maxPages: Math.max(1, BASELINE_MAX_PAGES - (progress?.pages ?? 0)),
    baselineFor: [w.key],
    stop: isRouteKey(w.key)
      ? { kind: 'past', ts: sec(routeReadsBackTo(since, routeHistoryMs, 'historyFrom' in w ? w.historyFrom : undefined)), undated: 'continue' }
      : { kind: 'while-open', pastTs: sec(since - ('filter' in w ? FEED_BASELINE_HORIZON_MS : BASELINE_HORIZON_MS)) },
    ...(progress ? { resumeToken: progress.token } : {}),
  };
}
