/**
 * The poller: schedules poll cycles and reports their status. Each cycle, per network: gather the
 * planner's input (plan-input.ts), plan it (planner.ts, pure), run the plan (executor.ts); the
 * network's state between cycles lives in network-state.ts, the wait after a cycle in cycle-outcome.ts.
 */
import type { PollStatus, Settings, Transition } from '../../shared/contract';
import type { Clock } from '../../shared/clock';
import type { ErrorInfo } from '../../shared/errors';
import type { SkippedRecords } from '../../shared/record-bounds';
import { canonicalNetwork, type Network } from '../../shared/validators';
import type { DataApiClient } from '../data-api/client';
import type { RequestBudget } from '../data-api/budget';
import type { Logger } from '../log/logger';
import type { Store } from '../store';
import type { TransitionEngine } from '../watch/engine';
import type { WatcherIndex } from '../watch/watcher-index';
import { isRouteKey } from '../store/watcher-key';
import { cycleOutcome } from './cycle-outcome';
import { runNetworkPlan, type CycleHook } from './executor';
import { GUARANTEED_LATENESS_S, MAX_LATENESS_S } from '../../shared/policy';
import { HOUR_MS, MINUTE_MS } from '../../shared/time';
import { NetworkStates } from './network-state';
import { gatherPlanInput } from './plan-input';
import { planNetwork } from './planner';
import type { CycleMeans } from './echoes';
import { receiptHook } from './receipt-hook';
import { CycleBudget } from './scan';
import { ALWAYS_SEEING, stuckHeld, type Sight } from '../sources/sight';
import { stuckUnconfirmed } from './stuck-read';
import type { CycleReport } from '../sources/source-health';
import type { SourceKey } from '../../shared/sources';

export type { CycleHook } from './executor';

interface PollerDeps {
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
  /** Work that rides on each cycle over the messages it read (none by default). */
  hooks?: readonly CycleHook[];
  /** Whether the source and its chains are read now: `stuck` is held for what is not (default: sees everything). */
  sight?: Sight;
  /** Each cycle's outcome, before the after-cycle work (the source's health). */
  onCycleEnd?: (r: CycleReport) => void;
  /** The records the current data source sent that were skipped at the boundary (for the status). */
  skippedRecords?: () => SkippedRecords | undefined;
}

/** Errors after which the cycle stops asking (the next networks would meet the same wall). */
const stopsCycle = (e: ErrorInfo | null): boolean => e !== null && (e.kind === 'network' || e.kind === 'timeout' || e.kind === 'rate_limited');

export class Poller {
  private timerCancel: (() => void) | null = null;
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private stopped = true;
  /** Offline cycles in a row: the backoff is the cycle's, as a cycle stops at the first unreachable network. */
  private offlineStreak = 0;
  private readonly networks: NetworkStates;
  private st: PollStatus = {
    state: 'stopped',
    lastSuccessAt: null,
    lastAttemptAt: null,
    nextRunAt: null,
    rateLimitedUntil: null,
    lastError: null,
    requestsLastMinute: 0,
    budgetPerMinute: 0,
    behindMs: null,
    keepUp: null,
    tracked: 0,
    watching: 0,
  };

  private readonly hooks: readonly CycleHook[];
  /** Start of the last cycle that read all it planned (before one has: the first cycle's start). */
  private lastFullCycleAt: number | null = null;
  /** The data source the status's last success and error belong to. */
  private statusSource: SourceKey | null = null;
  private readonly sight: Sight;

  constructor(private readonly d: PollerDeps) {
    this.networks = new NetworkStates(d.store.pollState);
    this.sight = d.sight ?? ALWAYS_SEEING;
    this.hooks = [receiptHook({ clock: d.clock, messages: d.store.messages, engine: d.engine, onTransitions: d.onTransitions }), ...(d.hooks ?? [])];
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

  /** Another source's last success or error is never shown as this one's: a switch starts them again. */
  private followSource(): void {
    const source = this.d.store.source();
    if (source === this.statusSource) return;
    this.statusSource = source;
    this.st = { ...this.st, lastSuccessAt: null, lastError: null, rateLimitedUntil: null };
    this.offlineStreak = 0;
    this.lastFullCycleAt = null;
    // Nor its reads behind or its plan not keeping up: what is held in memory starts again as after a restart.
    this.networks.forgetInMemory();
  }

  /** What `watching` counts, by kind: a route is kept among the feeds' list (it is read like one). */
  private watchers(): NonNullable<PollStatus['watchers']> {
    const feeds = this.d.index.feedList();
    const routes = feeds.filter((f) => isRouteKey(f.key)).length;
    return { addresses: this.d.index.addresses().length, feeds: feeds.length - routes, routes };
  }

  status(): PollStatus {
    this.followSource();
    const b = this.d.budget();
    // Later than the overlap guarantees: the user sees how late, and past what a record is not followed.
    const now = this.d.clock.now();
    const maxLateSec = this.networks.maxLateSec(now);
    const stall = this.networks.recentStall(now);
    const skippedRecords = this.d.skippedRecords?.();
    return {
      ...this.st,
      requestsLastMinute: b.usedLastMinute(),
      budgetPerMinute: b.perMinute(),
      quota: b.quota(),
      tracked: this.d.store.messages.trackedCount(),
      watching: this.d.index.size,
      watchers: this.watchers(),
      ...(maxLateSec > GUARANTEED_LATENESS_S || stall
        ? {
            lateRecords: {
              maxLateSec,
              limitSec: MAX_LATENESS_S,
              ...(stall ? { stall: { stalledSec: stall.stalledSec, sweptToMs: stall.floorTs * 1000, limited: stall.limited } } : {}),
            },
          }
        : {}),
      ...(skippedRecords ? { skippedRecords } : {}),
    };
  }

  /** Runs a cycle soon when polling runs on its schedule (never when only asked: `autoPoll: false`). */
  nudge(): void {
    if (!this.stopped) void this.runCycle();
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
    this.followSource();
    // The source this cycle reads: a switch during it does not make its outcome, or its pages, the new source's.
    const source = this.d.store.source();
    this.d.engine.readingFrom(source);
    const settings = this.d.settings();
    const intervalMs = settings.pollIntervalSeconds * 1000;
    const started = this.d.clock.now();
    this.lastFullCycleAt ??= started;
    this.setStatus({ state: 'polling', lastAttemptAt: started });
    const budget = this.d.budget();
    // A cycle may take up to the minute's cap (its share of it); the budget's pace line keeps the day within its quota.
    const cap = Math.max(1, Math.ceil((budget.burstPerMinute() * settings.pollIntervalSeconds) / 60));
    const cycle = new CycleBudget(Math.min(budget.available(), cap), () => budget.shortfall());
    let error: ErrorInfo | null = null;
    let asked = false;
    try {
      const networks = new Set<'mainnet' | 'fuji'>();
      for (const w of [...this.d.index.addresses(), ...this.d.index.feedList()]) networks.add(canonicalNetwork(w.network));
      for (const net of networks) {
        const client = this.d.client(net);
        if (!client) {
          error = { kind: 'network', message: 'The data source is not ready yet (the local service is starting).' };
          break;
        }
        // One network's failure is not undone by the next one's success: the cycle reports the first.
        const networkError = await this.pollNetwork(net, client, {
          cycle,
          intervalMs,
          liveMs: settings.stuckThresholdMinutes * MINUTE_MS,
          routeHistoryMs: settings.routeHistoryHours * HOUR_MS,
          means: () => ({ left: cycle.left, cap, pace: (budget.perMinute() * settings.pollIntervalSeconds) / 60, saved: budget.savedRequests() }),
        });
        asked = true;
        error ??= networkError;
        if (stopsCycle(networkError)) break;
      }
      // Not while the source or a message's chain is not read, nor from a read older than its comeback,
      // nor from a read older than the interval before its threshold (stuck-read.ts).
      const now = this.d.clock.now();
      const thresholdMs = settings.stuckThresholdMinutes * MINUTE_MS;
      const stuck = this.d.engine.sweep((t) => stuckHeld(this.sight, t) || stuckUnconfirmed(t, now, thresholdMs, intervalMs));
      if (stuck.length) this.d.onTransitions(stuck);
    } catch (e) {
      this.d.logger.error('poll cycle failed', { error: e });
      error = { kind: 'internal', message: `Polling hit an unexpected problem: ${e instanceof Error ? e.message : String(e)}` };
    }
    this.d.engine.readingFrom(null);
    await this.finish(error, started, intervalMs, cycle, asked, source);
  }

  /** One network's share of a cycle: plan it from what is known, run the plan, remember how it ended. */
  private async pollNetwork(
    net: 'mainnet' | 'fuji',
    client: DataApiClient,
    c: { cycle: CycleBudget; intervalMs: number; liveMs: number; routeHistoryMs: number; means: () => CycleMeans },
  ): Promise<ErrorInfo | null> {
    const nowMs = this.d.clock.now();
    const state = this.networks.get(net, client.baseUrl);
    const { store, index } = this.d;
    for (const h of this.hooks) h.beforeNetwork?.(net);
    const plan = planNetwork(
      gatherPlanInput({
        state,
        index,
        messages: store.messages,
        watchers: store.messageWatchers,
        nowMs,
        intervalMs: c.intervalMs,
        liveMs: c.liveMs,
        requestsLeft: c.cycle.left,
        means: c.means(),
        routeHistoryMs: c.routeHistoryMs,
        backSince: (chains) => this.sight.backSince(chains),
      }),
    );
    state.lastError = await runNetworkPlan(plan, {
      client,
      cycle: c.cycle,
      state,
      states: this.networks,
      engine: this.d.engine,
      messages: store.messages,
      watches: store.watches,
      logger: this.d.logger,
      onTransitions: this.d.onTransitions,
      hooks: this.hooks,
      nowMs,
    });
    return state.lastError;
  }

  private async finish(error: ErrorInfo | null, startedMs: number, intervalMs: number, cycle: CycleBudget, asked: boolean, source: SourceKey): Promise<void> {
    const nowMs = this.d.clock.now();
    const blockedUntil = error?.kind === 'rate_limited' ? this.d.budget().blockedUntilTime() : null;
    const o = cycleOutcome({ error, asked, startedMs, nowMs, intervalMs, offlineStreak: this.offlineStreak, blockedUntil });
    this.offlineStreak = o.offlineStreak;
    this.d.logger.debug('poll cycle done', { requests: cycle.used, state: o.state, error: error?.message });
    // Reads cut short by the budget are not lost, only later: say how far behind they are.
    if (!cycle.cutShort && error === null) this.lastFullCycleAt = startedMs;
    // With echoes owed (a list busier than the budget's pace, echoes.ts; its re-checks by ID always take
    // the rest of the cycle): how long the oldest span owed one went unread.
    const behindMs = this.networks.behindMs(nowMs) ?? (cycle.cutShort ? nowMs - (this.lastFullCycleAt ?? startedMs) : null);
    this.d.onCycleEnd?.({ source, at: nowMs, error, asked, read: cycle.answered > 0, complete: error === null && !cycle.cutShort });
    try {
      await this.d.afterCycle?.();
    } catch (e) {
      this.d.logger.warn('after-cycle work failed', { error: e });
    }
    this.setStatus({ ...o.patch, state: o.state, behindMs, keepUp: this.networks.keepUp(nowMs, intervalMs) });
    // Without start() (manual pollNow only) nothing is scheduled.
    if (!this.stopped) this.schedule(o.delayMs);
  }
}
