/**
 * Gathers the planner's input for one network from the watcher index and the local cache: the read
 * side of a cycle, kept apart so the planner itself touches nothing.
 */
import { canonicalNetwork, type Network } from '../../shared/validators';
import type { CachedMessages, MessageWatchers, TrackedMessage } from '../store';
import type { WatcherIndex } from '../watch/watcher-index';
import { type LatenessTracker } from './late-records';
import { CATCH_UP_MAX_MS, LIST_RATE_WINDOW_S, MIN_OVERLAP_S, STALL_CATCH_UP_MS } from '../../shared/policy';
import { echoesPay, type CycleMeans } from './echoes';
import { pagesRate, type DiscoveryMode, type NetworkState } from './network-state';
import { firehoseHeadCost, PAGE_SIZE } from './request-prices';
import { recheckDue, type Carriers } from './recheck-cadence';
import { receiptCovered } from './carrier-coverage';
import { isRouteKey } from '../store/watcher-key';
import { stuckReadDue } from './stuck-read';
import { discoveryMode, gapSec } from './planner';
import { type DueMessage, type NetworkPlanInput, type WatcherSummary } from './plan-types';

interface PlanInputSources {
  state: NetworkState;
  index: WatcherIndex;
  messages: CachedMessages;
  watchers: MessageWatchers;
  nowMs: number;
  intervalMs: number;
  /** Younger than this (the stuck threshold) a message is still live: re-checked on a short cadence. */
  liveMs: number;
  /** Requests the cycle may still spend. */
  requestsLeft?: number;
  /** What the budget lets a cycle spend (absent: no limit): decides echo mode (echoes.ts). */
  means?: CycleMeans;
  /** How far back a route's baseline reads in full (the setting routeHistoryHours). */
  routeHistoryMs?: number;
  /** When the source or these chains came back after not being read (null: not since the start). */
  backSince?: (blockchainIds: readonly string[]) => number | null;
}

export function gatherPlanInput(o: PlanInputSources): NetworkPlanInput {
  const net = o.state.network;
  const onNet = (w: { network: Network }) => canonicalNetwork(w.network) === net;
  const addresses = o.index
    .addresses()
    .filter(onNet)
    .map((a) => ({ key: a.key, baselineDone: a.baselineDone, since: a.since }));
  const feeds = o.index
    .feedList()
    .filter(onNet)
    .map((f) => ({
      key: f.key,
      baselineDone: f.baselineDone,
      since: f.since,
      filter: f.filter,
      ...(f.historyFrom !== undefined ? { historyFrom: f.historyFrom } : {}),
    }));
  const base = {
    nowMs: o.nowMs,
    intervalMs: o.intervalMs,
    head: o.state.head,
    ratePerSec: o.state.ratePerSec,
    addresses,
    feeds,
    echoing: o.state.echoChain !== null,
    ...(o.routeHistoryMs !== undefined ? { routeHistoryMs: o.routeHistoryMs } : {}),
  };
  // Asked once a cycle: a count query per watched list.
  const rates = listRates(base, o);
  const mode = discoveryMode({ ...base, ...rates });
  const gapOpen = o.state.echoes.some((e) => e.gap && !e.recheck);
  // Not entered while an indexer stall's catch-up runs: what the stall held back floods the list's top
  // (the rate looks tens of times busier for a few cycles) and the catch-up sweeps of late-records.ts
  // must run then; echo mode, once on, handles a stall itself (echoes.ts).
  const catchingUp = o.state.stall !== null && o.nowMs - o.state.stall.resumedAt <= STALL_CATCH_UP_MS;
  const echo =
    mode === 'firehose' &&
    o.state.head !== null &&
    (o.state.echoChain !== null || !catchingUp) &&
    echoesPay(pagesRate(o.state), o.intervalMs, o.state.lateness.fullOverlapSec(o.nowMs, o.intervalMs), o.means, o.state.echoChain !== null);
  const announcingFeeds = feeds.some((f) => !isRouteKey(f.key));
  const tracked = o.messages.trackedWhere(
    (t) =>
      canonicalNetwork(t.network) === net &&
      (recheckDue(t, o.nowMs - trackedTs(t) * 1000, o.nowMs - t.lastSeenAt, o.intervalMs, o.liveMs, carriersOf(mode, o.state, t.lastSeenAt)) ||
        stuckAwaitsRead(t, o) ||
        (stuckReadDue(t, o.nowMs, o.liveMs, o.intervalMs) && stuckAnnounced(t, net, o, announcingFeeds))),
  );
  // Feed membership costs a query per message: asked only when feeds are scanned one by one.
  const liveFeeds = new Set(mode === 'per-address' ? feeds.filter((f) => f.baselineDone).map((f) => f.key) : []);
  const due: DueMessage[] = tracked.map((t) => ({
    messageId: t.messageId,
    ts: trackedTs(t),
    address: o.index.watchedAddressOf(t.from, t.to, net),
    seenAt: t.lastSeenAt,
    feeds: liveFeeds.size
      ? o.watchers
          .of(t.messageId)
          .map((w) => w.watcher)
          .filter((k) => liveFeeds.has(k))
      : [],
  }));
  return {
    ...base,
    ...rates,
    due,
    addressPages: mode === 'firehose' ? addressPages(due, o.watchers) : new Map(),
    // Late records: a full overlap every other cycle, the least one between (late-records.ts); on a list
    // busier than the budget's pace, the least one every cycle and echoes (echoes.ts).
    // A gap below the cursor (a read from the top cut short) is read from its token: the read from the top is news only meanwhile.
    ...(echo || gapOpen ? { overlapSec: MIN_OVERLAP_S, fullOverlap: false, echo, newsOnly: true } : overlap(o.state.lateness, o.nowMs, o.intervalMs)),
    trail: o.state.trail,
    lastTrailAt: o.state.lastTrailAt,
    stall: o.state.stall,
    lastDiscoveryAt: o.state.lastDiscoveryAt,
    sweptAt: o.state.sweptAt,
    listSweeps: o.state.listSweeps,
    readAt: o.state.readAt,
    baselineProgress: o.state.baselines,
    densityPerSec: o.state.densityPerSec,
    ...(o.requestsLeft !== undefined ? { requestsLeft: o.requestsLeft } : {}),
    listBaselineProgress: o.state.listBaseline,
  };
}

/** How this message's receipt carriers are read (recheck-cadence.ts). */
const carriersOf = (mode: DiscoveryMode | null, s: NetworkState, lastSeenAt: number): Carriers =>
  mode !== 'firehose' ? 'unseen' : receiptCovered(s.coveredSince, lastSeenAt) ? 'covered' : 'seen';

function overlap(lateness: LatenessTracker, nowMs: number, intervalMs: number): { overlapSec: number; fullOverlap: boolean } {
  const full = lateness.fullDue(nowMs, intervalMs);
  return { overlapSec: full ? lateness.fullOverlapSec(nowMs, intervalMs) : MIN_OVERLAP_S, fullOverlap: full };
}

/**
 * Each watched list's messages per second in the cache, asked only where the per-address mode
 * could still be chosen (no more lists than the firehose's head pages): there, a few dense lists may cost more.
 */
function listRates(
  base: Pick<NetworkPlanInput, 'nowMs' | 'intervalMs' | 'head' | 'ratePerSec' | 'addresses' | 'feeds'>,
  o: Pick<PlanInputSources, 'watchers'>,
): { listRatesPerSec?: number[] } {
  if (base.ratePerSec === null || !base.head) return {};
  const lists = [...base.addresses, ...base.feeds];
  if (lists.length === 0 || lists.length > firehoseHeadCost(base.ratePerSec, gapSec(base))) return {};
  const nowSec = Math.floor(base.nowMs / 1000);
  // A list watched for less than the window (its baseline maybe still running): its news since it was added.
  const rate = (w: WatcherSummary) => {
    const from = Math.max(nowSec - LIST_RATE_WINDOW_S, w.since === undefined ? -Infinity : Math.floor(w.since / 1000));
    return from >= nowSec ? 0 : o.watchers.countSince(w.key, from) / (nowSec - from);
  };
  return { listRatesPerSec: lists.map(rate) };
}

/** Pages of each address's cached history down to its oldest due message: the price of asking it. */
function addressPages(due: readonly DueMessage[], watchers: MessageWatchers): Map<string, number> {
  const oldest = new Map<string, number>();
  for (const t of due) if (t.address !== null) oldest.set(t.address, Math.min(t.ts, oldest.get(t.address) ?? Infinity));
  return new Map([...oldest].map(([address, ts]) => [address, Math.ceil((watchers.countSince(address, ts) + 1) / PAGE_SIZE)]));
}

/**
 * Whether a `stuck` of this message would be announced: a watched address's, or a saved feed's (a route
 * announces none: asking for its messages at their threshold would only cost requests). Any saved feed
 * counts, not asked per message (a query each).
 */
const stuckAnnounced = (t: TrackedMessage, net: string, o: PlanInputSources, announcingFeeds: boolean): boolean =>
  announcingFeeds || o.index.watchedAddressOf(t.from, t.to, net as Network) !== null;

/**
 * A pending message at its stuck threshold whose last read is older than its source's or chains' comeback:
 * `stuck` waits for a read that saw it (sources/sight.ts), so it is asked for every cycle of the catch-up
 * after the comeback (`CATCH_UP_MAX_MS`); one the source no longer returns then waits for its own cadence.
 */
function stuckAwaitsRead(t: TrackedMessage, o: PlanInputSources): boolean {
  if (t.status !== 'pending' || t.stuckFired || !o.backSince) return false;
  const back = o.backSince([t.sourceChain, t.destinationChain]);
  return back !== null && t.lastSeenAt < back && o.nowMs - back < CATCH_UP_MAX_MS && o.nowMs - (t.pendingSince ?? t.firstSeenAt) >= o.liveMs - o.intervalMs;
}

/** The timestamp (s) a tracked message sorts by in the API's newest-first order. */
const trackedTs = (t: TrackedMessage): number => t.sortTs ?? Math.floor((t.pendingSince ?? t.lastSeenAt) / 1000);
