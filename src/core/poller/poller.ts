import type { PollState, PollStatus, Settings, Transition } from '../../shared/contract';
import type { Clock } from '../../shared/clock';
import type { ErrorInfo } from '../../shared/errors';
import { canonicalNetwork, type Network } from '../../shared/validators';
import type { DataApiClient } from '../data-api/client';
import type { RequestBudget } from '../data-api/budget';
import type { Logger } from '../log/logger';
import type { Store } from '../store';
import type { TrackedMessage } from '../store/message-cache';
import type { FeedInfo, WatcherInfo } from '../store/watch-store';
import type { TransitionEngine } from '../watch/engine';
import type { WatcherIndex } from '../watch/watcher-index';
import { firehoseHeadCost, PAGE_SIZE, planRechecks, preferFirehose, type RecheckCandidate } from './plan';
import { ReceiptCarriers } from './receipt-carriers';
import { recheckDue } from './recheck-cadence';
import { recheckById } from './recheck-by-id';
import { CycleBudget, scan, type ScanResult } from './scan';

/** A silent baseline reads at most this many pages of an address's history. */
export const BASELINE_MAX_PAGES = 50;
/** With this many addresses waiting for a baseline, one pass over the unfiltered list is cheaper. */
export const FIREHOSE_BASELINE_MIN = 20;
/** How far back a baseline through the unfiltered list reads. */
export const BASELINE_HORIZON_MS = 2 * 3600_000;
const MAX_BASELINE_FIREHOSE_PAGES = 2000;
const MAX_PAGES_PER_SCAN = 60;
const OFFLINE_RETRY_MS = [2_000, 5_000, 10_000, 30_000];

export interface PollerDeps {
  store: Store;
  engine: TransitionEngine;
  index: WatcherIndex;
  clock: Clock;
  logger: Logger;
  settings: () => Settings;
  /** The client for a network (null when the data source is not ready, e.g. the local service is starting). */
  client: (network: Network) => DataApiClient | null;
  budget: () => RequestBudget;
  onTransitions: (t: Transition[]) => void;
  onStatus: (s: PollStatus) => void;
  /** Called after each cycle (the outbox drains here). */
  afterCycle?: () => Promise<void> | void;
  /** Reloads the watcher index after a baseline completes. */
  reloadIndex: () => void;
}

interface HeadCursor {
  /** Newest source timestamp (s) seen at the top of the firehose. */
  ts: number;
  /** When that scan ran (ms). */
  at: number;
}

/**
 * Plans and runs poll cycles: discovers new messages (one firehose per network or one request per
 * address, whichever costs less), re-checks tracked messages (deepening the firehose or asking their
 * address, whichever costs less), takes silent baselines, and stays within the request budget.
 */
export class Poller {
  private timerCancel: (() => void) | null = null;
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private stopped = true;
  private offlineStreak = 0;
  private rates = new Map<string, number>();
  private tsOf = new Map<string, number>();
  private st: PollStatus = {
    state: 'stopped',
    lastSuccessAt: null,
    lastAttemptAt: null,
    nextRunAt: null,
    rateLimitedUntil: null,
    lastError: null,
    requestsLastMinute: 0,
    budgetPerMinute: 0,
    tracked: 0,
    watching: 0,
  };

  private readonly carriers: ReceiptCarriers;

  constructor(private readonly d: PollerDeps) {
    this.carriers = new ReceiptCarriers(d.clock);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    this.timerCancel?.();
    this.timerCancel = null;
    this.setStatus({ state: 'stopped', nextRunAt: null });
  }

  /** Waits for a running cycle, if any. */
  async idle(): Promise<void> {
    await this.running;
  }

  status(): PollStatus {
    const b = this.d.budget();
    return {
      ...this.st,
      requestsLastMinute: b.usedLastMinute(),
      budgetPerMinute: b.perMinute(),
      tracked: this.d.store.messages.trackedCount(),
      watching: this.d.index.size,
    };
  }

  /** Runs a cycle now (or joins the running one) and returns the status after it. */
  async pollNow(): Promise<PollStatus> {
    await this.runCycle();
    return this.status();
  }

  /** Runs a cycle now; while one runs, queues exactly one more (changes made meanwhile are seen). */
  runCycle(): Promise<void> {
    if (this.running) {
      this.queued ??= this.running.then(() => {
        this.queued = null;
        return this.runCycle();
      });
      return this.queued;
    }
    this.timerCancel?.();
    this.timerCancel = null;
    this.running = this.cycle().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private schedule(delayMs: number): void {
    this.timerCancel?.();
    if (this.stopped) return;
    const at = this.d.clock.now() + Math.max(0, delayMs);
    this.st.nextRunAt = at;
    this.timerCancel = this.d.clock.setTimer(() => {
      this.timerCancel = null;
      void this.runCycle();
    }, delayMs);
  }

  private setStatus(patch: Partial<PollStatus>): void {
    this.st = { ...this.st, ...patch };
    this.d.onStatus(this.status());
  }

  private async cycle(): Promise<void> {
    const settings = this.d.settings();
    const intervalMs = settings.pollIntervalSeconds * 1000;
    const started = this.d.clock.now();
    this.setStatus({ state: 'polling', lastAttemptAt: started });
    const budget = this.d.budget();
    const cycle = new CycleBudget(Math.min(budget.available(), Math.max(1, Math.ceil((budget.perMinute() * settings.pollIntervalSeconds) / 60))), () => budget.shortfall());
    let error: ErrorInfo | null = null;
    try {
      const networks = new Set<'mainnet' | 'fuji'>();
      for (const w of [...this.d.index.addresses(), ...this.d.index.feedList()]) networks.add(canonicalNetwork(w.network));
      for (const net of networks) {
        const client = this.d.client(net);
        if (!client) {
          error = { kind: 'network', message: 'The data source is not ready yet (the local service is starting).' };
          break;
        }
        error = await this.pollNetwork(net, client, cycle, intervalMs);
        if (error && (error.kind === 'network' || error.kind === 'timeout' || error.kind === 'rate_limited')) break;
      }
      const stuck = this.d.engine.sweep();
      if (stuck.length) this.d.onTransitions(stuck);
    } catch (e) {
      this.d.logger.error('poll cycle failed', { error: e });
      error = { kind: 'internal', message: `Polling hit an unexpected problem: ${e instanceof Error ? e.message : String(e)}` };
    }
    await this.finish(error, started, intervalMs, cycle);
  }

  private async finish(error: ErrorInfo | null, started: number, intervalMs: number, cycle: CycleBudget): Promise<void> {
    this.tsOf = new Map(); // nothing of a cycle outlives it
    const now = this.d.clock.now();
    let delay = Math.max(0, started + intervalMs - now);
    let state: PollState = 'idle';
    const patch: Partial<PollStatus> = { lastError: error, rateLimitedUntil: null };
    if (!error) {
      this.offlineStreak = 0;
      patch.lastSuccessAt = now;
    } else if (error.kind === 'network' || error.kind === 'timeout') {
      state = 'offline';
      delay = Math.min(delay || intervalMs, OFFLINE_RETRY_MS[Math.min(this.offlineStreak, OFFLINE_RETRY_MS.length - 1)] as number);
      this.offlineStreak++;
    } else if (error.kind === 'rate_limited') {
      state = 'rate_limited';
      const until = this.d.budget().blockedUntilTime() ?? error.retryAt ?? now + intervalMs;
      patch.rateLimitedUntil = until;
      delay = Math.max(delay, until - now);
    } else {
      state = 'error';
    }
    this.d.logger.debug('poll cycle done', { requests: cycle.used, state, error: error?.message });
    try {
      await this.d.afterCycle?.();
    } catch (e) {
      this.d.logger.warn('after-cycle work failed', { error: e });
    }
    this.setStatus({ ...patch, state });
    // Without start() (manual pollNow only) nothing is scheduled.
    if (!this.stopped) this.schedule(delay);
  }

  private async pollNetwork(net: 'mainnet' | 'fuji', client: DataApiClient, cycle: CycleBudget, intervalMs: number): Promise<ErrorInfo | null> {
    const now = this.d.clock.now();
    const nowSec = Math.floor(now / 1000);
    const onNet = (w: WatcherInfo) => canonicalNetwork(w.network) === net;
    const addresses = this.d.index.addresses().filter(onNet);
    const feeds = this.d.index.feedList().filter(onNet);
    const liveAddresses = addresses.filter((a) => a.baselineDone);
    const liveFeeds = feeds.filter((f) => f.baselineDone);
    const liveMs = this.d.settings().stuckThresholdMinutes * 60_000;
    // Cursors belong to one data source: switching sources starts fresh.
    const headKey = `head:${client.baseUrl}:${net}`;
    const head = this.d.store.pollState.get<HeadCursor>(headKey);
    const gapSec = head ? Math.max(1, (now - head.at) / 1000) : intervalMs / 1000;
    const rate = this.rates.get(headKey) ?? null;
    const firehose = liveAddresses.length + liveFeeds.length > 0 && preferFirehose(rate, gapSec, liveAddresses.length + liveFeeds.length);
    this.carriers.refresh(this.d.store.db);
    const due = this.d.store.messages.trackedWhere((t) => canonicalNetwork(t.network) === net && recheckDue(t, now - trackedTs(t) * 1000, now - t.lastSeenAt, intervalMs, liveMs, firehose));
    const base = { network: net as Network, engine: this.d.engine, messages: this.d.store.messages, cycle, pageSize: PAGE_SIZE, onTransitions: this.d.onTransitions, receipts: this.carriers };
    // Only due messages are ever looked for (kept for this network's scans only).
    this.tsOf = new Map(due.map((t) => [t.messageId, trackedTs(t)]));

    if (liveAddresses.length + liveFeeds.length > 0) {
      if (firehose) {
        const err = await this.firehoseCycle(headKey, client, base, head, due, rate, gapSec, nowSec, now);
        if (err) return err;
      } else {
        const dueByAddress = new Map<string, string[]>();
        for (const t of due) {
          const a = this.d.index.watchedAddressOf(t.from, t.to, net);
          if (a) dueByAddress.set(a, [...(dueByAddress.get(a) ?? []), t.messageId]);
        }
        for (const a of liveAddresses) {
          const r = await this.addressScan(client, a.key, new Set(dueByAddress.get(a.key) ?? []), base);
          if (r.error || r.outOfBudget) return r.error;
        }
        for (const f of liveFeeds) {
          const r = await this.feedScan(client, f, due, base);
          if (r.error || r.outOfBudget) return r.error;
        }
      }
      const err = await recheckById(client, this.carriers.toAsk(net), base);
      if (err) return err;
    }

    const pendingAddresses = addresses.filter((a) => !a.baselineDone);
    if (pendingAddresses.length >= FIREHOSE_BASELINE_MIN) {
      const err = await this.firehoseBaseline(client, pendingAddresses, base);
      if (err) return err;
    }
    for (const w of [...addresses, ...feeds].filter((x) => !x.baselineDone && this.d.index.get(x.key)?.baselineDone !== true)) {
      if (cycle.left === 0) break;
      const err = await this.baseline(client, w, base);
      if (err) return err;
    }
    return null;
  }

  /**
   * The baseline of many addresses at once: page the unfiltered list back through history (up to
   * BASELINE_HORIZON_MS, and never more pages than the addresses could cost one by one). Everything
   * older than where it stopped is history for all of them.
   */
  private async firehoseBaseline(client: DataApiClient, pending: WatcherInfo[], base: BaseScan): Promise<ErrorInfo | null> {
    const horizon = Math.floor((this.d.clock.now() - BASELINE_HORIZON_MS) / 1000);
    const r = await scan((token) => client.listMessages({ pageSize: PAGE_SIZE, ...(token ? { pageToken: token } : {}) }), {
      ...base,
      maxPages: Math.min(pending.length * BASELINE_MAX_PAGES, MAX_BASELINE_FIREHOSE_PAGES),
      baselineFor: new Set(pending.map((w) => w.key)),
      next: (p) => p.oldestTs === null || p.oldestTs >= horizon,
    });
    if (r.error) return r.error;
    if (r.pages === 0) return null;
    for (const w of pending) this.d.store.watches.finishBaseline(w.key, r.exhausted ? null : r.oldestTs);
    this.d.reloadIndex();
    this.d.logger.info('baseline taken through the list operation', { watchers: pending.length, pages: r.pages, messages: r.count });
    return null;
  }

  private async firehoseCycle(
    headKey: string,
    client: DataApiClient,
    base: BaseScan,
    head: HeadCursor | undefined,
    due: TrackedMessage[],
    rate: number | null,
    gapSec: number,
    nowSec: number,
    now: number,
  ): Promise<ErrorInfo | null> {
    const headPages = rate === null ? 1 : firehoseHeadCost(rate, gapSec);
    const candidates: RecheckCandidate[] = due.map((t) => ({
      messageId: t.messageId,
      ts: trackedTs(t),
      address: this.d.index.watchedAddressOf(t.from, t.to, base.network),
    }));
    const plan = planRechecks(
      candidates,
      rate ?? 0,
      nowSec,
      headPages,
      (address, ts) => Math.ceil((this.d.store.messages.countSince(address, ts) + 1) / PAGE_SIZE),
      MAX_PAGES_PER_SCAN,
      true,
    );
    const stopBelow = Math.min(head?.ts ?? Infinity, plan.depthTs ?? Infinity);
    const r = await scan((token) => client.listMessages({ pageSize: PAGE_SIZE, ...(token ? { pageToken: token } : {}) }), {
      ...base,
      maxPages: MAX_PAGES_PER_SCAN,
      countNewerThan: head?.ts ?? null,
      lookFor: new Set(candidates.map((c) => c.messageId)),
      // Without a cursor (first run) one page sets it; otherwise page until past the cursor and the depth target.
      next: (p) => stopBelow !== Infinity && p.oldestTs !== null && p.oldestTs >= stopBelow,
    });
    if (r.pages > 0 && r.newestTs !== null) {
      this.updateRate(headKey, r, head, now);
      if (!r.error && !r.outOfBudget) this.d.store.pollState.set(headKey, { ts: Math.max(r.newestTs, head?.ts ?? 0), at: now } satisfies HeadCursor);
    }
    if (r.error || r.outOfBudget) return r.error;
    // Whatever the firehose scan did not reach (the rate estimate was off) goes to its address now.
    if (plan.depthTs !== null && r.oldestTs !== null && r.oldestTs > plan.depthTs && !r.exhausted) {
      const planned = new Set([...plan.byAddress.values()].flat().map((c) => c.messageId));
      for (const c of candidates) {
        if (c.address === null || r.seen.has(c.messageId) || c.ts >= r.oldestTs || planned.has(c.messageId)) continue;
        plan.byAddress.set(c.address, [...(plan.byAddress.get(c.address) ?? []), c]);
      }
    }
    for (const [address, cands] of plan.byAddress) {
      const need = new Set(cands.map((c) => c.messageId).filter((id) => !r.seen.has(id)));
      if (!need.size) continue;
      const a = await this.addressScan(client, address, need, base);
      if (a.error || a.outOfBudget) return a.error;
    }
    return recheckById(client, plan.byId.map((c) => c.messageId).filter((id) => !r.seen.has(id)), base);
  }

  private updateRate(net: string, r: ScanResult, head: HeadCursor | undefined, now: number): void {
    let sample: number | null = null;
    if (head && now > head.at && r.oldestTs !== null && r.oldestTs < head.ts) sample = r.newer / ((now - head.at) / 1000);
    else if (r.newestTs !== null && r.oldestTs !== null) sample = (r.count || 1) / Math.max(1, r.newestTs - r.oldestTs + 1);
    if (sample === null) return;
    const prev = this.rates.get(net);
    this.rates.set(net, prev === undefined ? sample : 0.5 * prev + 0.5 * sample);
  }

  /** An address's newest page, and older pages until every message we still need from it was seen. */
  private addressScan(client: DataApiClient, address: string, need: Set<string>, base: BaseScan): Promise<ScanResult> {
    const neededTs = this.minTs(need);
    return scan((token) => client.listAddressMessages(address, { pageSize: PAGE_SIZE, ...(token ? { pageToken: token } : {}) }), {
      ...base,
      maxPages: MAX_PAGES_PER_SCAN,
      lookFor: new Set(need),
      next: (p, seen) => {
        for (const id of seen) need.delete(id);
        if (need.size === 0) return !p.knownBefore && p.full; // more unseen news may follow
        return neededTs === null || p.oldestTs === null || p.oldestTs >= neededTs; // past it: the API no longer lists it
      },
    });
  }

  private feedScan(client: DataApiClient, f: FeedInfo, due: TrackedMessage[], base: BaseScan): Promise<ScanResult> {
    const need = new Set(due.map((t) => t.messageId).filter((id) => this.d.store.messages.watchers(id).some((w) => w.watcher === f.key)));
    const neededTs = this.minTs(need);
    return scan((token) => client.listMessages({ ...f.filter, pageSize: PAGE_SIZE, ...(token ? { pageToken: token } : {}) }), {
      ...base,
      maxPages: MAX_PAGES_PER_SCAN,
      lookFor: new Set(need),
      next: (p, seen) => {
        for (const id of seen) need.delete(id);
        if (need.size === 0) return !p.knownBefore && p.full;
        return neededTs === null || p.oldestTs === null || p.oldestTs >= neededTs;
      },
    });
  }

  /** Reads recent history silently; open messages in it are tracked from now on. */
  private async baseline(client: DataApiClient, w: WatcherInfo, base: BaseScan): Promise<ErrorInfo | null> {
    const feed = w.key.startsWith('feed:') ? (w as FeedInfo) : null;
    const fetchPage = feed
      ? (token: string | undefined) => client.listMessages({ ...feed.filter, pageSize: PAGE_SIZE, ...(token ? { pageToken: token } : {}) })
      : (token: string | undefined) => client.listAddressMessages(w.key, { pageSize: PAGE_SIZE, ...(token ? { pageToken: token } : {}) });
    const r = await scan(fetchPage, {
      ...base,
      maxPages: BASELINE_MAX_PAGES,
      baselineFor: new Set([w.key]),
      // Older history matters only while it still holds open messages.
      next: (p) => p.hasOpen,
    });
    if (r.error || r.outOfBudget) return r.error;
    this.d.store.watches.finishBaseline(w.key, r.exhausted ? null : r.oldestTs);
    this.d.reloadIndex();
    this.d.logger.info('baseline taken', { watcher: w.key, pages: r.pages, messages: r.count });
    return null;
  }

  private minTs(ids: Set<string>): number | null {
    let min: number | null = null;
    for (const id of ids) {
      const ts = this.tsOf.get(id);
      if (ts !== undefined) min = min === null ? ts : Math.min(min, ts);
    }
    return min;
  }
}

/** The timestamp (s) a tracked message sorts by in the API's newest-first order. */
const trackedTs = (t: TrackedMessage): number => t.sortTs ?? Math.floor((t.pendingSince ?? t.lastSeenAt) / 1000);

type BaseScan = Omit<Parameters<typeof scan>[1], 'maxPages' | 'next' | 'baselineFor' | 'countNewerThan' | 'lookFor'>;
