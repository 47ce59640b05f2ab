/**
 * The executor: runs one network's plan against the Data API client within the cycle's budget,
 * feeding every page to the transition engine (scan.ts), and records what it learnt in the network's
 * state (head cursor, rate, mode, baselines finished).
 */
import { noteCoverage } from './carrier-coverage';
import type { ErrorInfo } from '../../shared/errors';
import { BASELINE_SHARE_PERCENT, ECHO_SHARE, FRESH_AGE_MS, GUARANTEED_LATENESS_S, STALL_CATCH_UP_MS } from '../../shared/policy';
import { planFollowUps } from './planner';
import { type BaselineProgress, type FirehoseDiscovery, type NetworkPlan, type PerAddressDiscovery, type ScanStep, type StopRule } from './plan-types';
import { recheckById } from './recheck-by-id';
import { echoDue, echoReadOrder, echoStep, recheckSweep, type Echo } from './echoes';
import { type ScanResult } from './scan';
import { notifyHooks, reachedStop, readPages, type Execution } from './execution';

export type { CycleHook, Execution } from './execution';

/** Runs the plan; returns the error that ended it early (the budget running out is one), or null. */
export async function runNetworkPlan(plan: NetworkPlan, x: Execution): Promise<ErrorInfo | null> {
  const d = plan.discovery;
  x.state.mode = d?.mode ?? null;
  noteCoverage(x.state, x.nowMs);
  /** Where this cycle's head scan stopped (a sweep starting now need not read again what it read). */
  let headNext: string | null = null;
  if (d?.mode === 'firehose') {
    const { error, next } = await discoverByFirehose(d, x, plan.fullOverlap, plan.echo, baselinesWait(plan));
    if (error) return afterBudgetCut(error, plan, x);
    headNext = next;
  } else if (d) {
    const error = await discoverPerAddress(d, x, baselinesWait(plan));
    if (error !== undefined) return error && afterBudgetCut(error, plan, x);
    if (plan.fullOverlap) x.state.lateness.fullDone(x.nowMs);
  }
  if (d) x.state.lastDiscoveryAt = x.nowMs;
  if (plan.trail && x.cycle.left > 0) {
    // Late records: the trailing sweep takes only what the cycle has left.
    // A sweep starting now goes on below where this cycle's head scan stopped (it just read the part above).
    const from = plan.trail.sweep.token === null && headNext !== null ? { resumeToken: headNext } : {};
    const step = { ...plan.trail.step, ...from, maxPages: Math.min(plan.trail.step.maxPages, x.cycle.left) };
    const r = await readPages(step, x);
    x.states.afterTrail(x.state, plan.trail.sweep, r);
    if (r.error) return r.error;
  }
  // Echo mode: what the cycle has left reads the echoes due GUARANTEED_LATENESS_S on, early (echoes.ts).
  if (x.state.echoes.length && x.cycle.left > 0) {
    const error = await readEchoes(x, true, x.cycle.left);
    if (error) return error;
  }
  // In firehose mode every other cycle reads at least GUARANTEED_LATENESS_S below the cursor (late-records.ts); not in echo mode.
  // Nor while echoes are owed (a gap below the cursor is read when it is, maybe later).
  const rereadFromTs =
    x.state.mode === 'firehose' && !plan.echo && !x.state.echoes.some((e) => !e.recheck) ? Math.floor(x.nowMs / 1000) - GUARANTEED_LATENESS_S : null;
  for (const h of x.hooks) {
    const err = (await h.afterNetwork?.({ network: x.state.network, client: x.client, cycle: x.cycle, rereadFromTs })) ?? null;
    if (err) return err;
  }
  // History last: news (above), late records and receipts first; a baseline takes what the cycle has
  // left and goes on from its page next cycle (takeBaselines).
  return takeBaselines(plan, x);
}

/**
 * The list baseline, then the one-by-one baselines, each from where the budget last stopped it; one the
 * budget stops again keeps its place. Returns the error that ended the cycle (the budget's when it ran out), or null.
 */
async function takeBaselines(measured: NetworkPlan, x: Execution): Promise<ErrorInfo | null> {
  x.cycle.release();
  // Priced at the rate this cycle's head read measured, when the plan waited for it.
  const plan = measured.baselinesAtRate ? { ...measured, ...measured.baselinesAtRate(x.state.ratePerSec) } : measured;
  const planned = new Set(plan.baselines.map((b) => b.watcher));
  for (const k of [...x.state.baselines.keys()]) if (!planned.has(k)) x.state.baselines.delete(k); // removed meanwhile
  if (!plan.listBaseline) x.state.listBaseline = null;
  if (plan.listBaseline && x.cycle.left > 0) {
    const { watchers, step, progress } = plan.listBaseline;
    const startedAt = (progress && x.state.listBaseline?.startedAt) || x.nowMs;
    const r = await readPages(step, x);
    const next = baselineGoesOn(progress, r);
    x.state.listBaseline = next && { ...next, watchers, startedAt };
    if (next || r.error) return r.error;
    const floor = finishBaselines(watchers, r, progress, x);
    x.states.afterListPass(x.state, startedAt, floor, r.exhausted);
    x.logger.info('baseline taken through the list operation', { watchers: watchers.length, pages: r.pages + (progress?.pages ?? 0), messages: r.count });
  }
  for (const b of plan.baselines) {
    if (x.cycle.left === 0) break;
    const r = await readPages(b.step, x);
    const next = baselineGoesOn(b.progress, r);
    if (next) x.state.baselines.set(b.watcher, next);
    if (next || r.error) return r.error;
    x.state.baselines.delete(b.watcher);
    finishBaselines([b.watcher], r, b.progress, x);
    x.logger.info('baseline taken', { watcher: b.watcher, pages: r.pages + (b.progress?.pages ?? 0), messages: r.count });
  }
  return null;
}

/**
 * Discovery used the cycle's budget up (news, echoes, re-checks): the baselines still get the share kept
 * for them, or a budget the rest always uses up would never let one end. Any other error ends the cycle.
 */
async function afterBudgetCut(error: ErrorInfo, plan: NetworkPlan, x: Execution): Promise<ErrorInfo> {
  if (error.kind !== 'rate_limited' || !x.cycle.cutShort) return error;
  return (await takeBaselines(plan, x)) ?? error;
}

/** Some watcher waits for its baseline: after the news, a share of the cycle is kept for it (keepForBaselines). */
const baselinesWait = (plan: NetworkPlan): boolean => plan.listBaseline !== null || plan.baselines.length > 0;

/** Keeps BASELINE_SHARE_PERCENT of what the cycle has left after its news for the baselines (released when they run). */
function keepForBaselines(x: Execution, wait: boolean): void {
  if (wait) x.cycle.hold(Math.ceil((x.cycle.left * BASELINE_SHARE_PERCENT) / 100));
}

/** Where a baseline the budget (or an error) stopped goes on next cycle; null when it ended (or read nothing and has no place yet). */
function baselineGoesOn(progress: BaselineProgress | null, r: ScanResult): BaselineProgress | null {
  if (!r.error && !r.outOfBudget) return null;
  if (r.pages === 0 || r.nextToken === null || r.exhausted) return progress;
  const oldest = [progress?.oldestTs, r.oldestTs].filter((t): t is number => t !== null && t !== undefined);
  return { token: r.nextToken, pages: (progress?.pages ?? 0) + r.pages, oldestTs: oldest.length ? Math.min(...oldest) : null };
}

/**
 * Each list in turn, starting with the one the last cycle's budget cut short (so no list starves behind
 * the busy ones), noting when each list's scan completed; then the lists' sweeps with what the cycle has
 * left. Returns the error that cut the cycle short (the budget's when it ran out), undefined when every list was read.
 */
async function discoverPerAddress(d: PerAddressDiscovery, x: Execution, baselinesWaiting: boolean): Promise<ErrorInfo | null | undefined> {
  const n = d.scans.length;
  const start = n ? x.state.scanStart % n : 0;
  /** Where each list's scan stopped: a sweep starting now goes on below it. */
  const stoppedAt = new Map<string, string | null>();
  const byId: string[] = [];
  for (let k = 0; k < n; k++) {
    const step = d.scans[(start + k) % n]!;
    const r = await readPages(step, x);
    if (r.error || r.outOfBudget) {
      x.state.scanStart = (start + k) % n;
      if (r.outOfBudget && step.list !== undefined) continueAsSweep(step, step.list, r, x);
      return r.error;
    }
    if (step.list !== undefined) {
      x.state.readAt.set(step.list, x.nowMs);
      stoppedAt.set(step.list, r.exhausted ? null : r.nextToken);
    }
    byId.push(...belowNeedPages(step.stop, r));
  }
  keepForBaselines(x, baselinesWaiting);
  const error = await askById([...new Set(byId)], x);
  if (error) return error;
  for (const { list, sweep, step } of d.sweeps) {
    if (x.cycle.left === 0) break;
    const from = sweep.token === null ? stoppedAt.get(list) : undefined;
    if (from === null) {
      x.states.endListSweep(x.state, list, sweep); // its scan read the whole list
      continue;
    }
    const r = await readPages({ ...step, ...(from ? { resumeToken: from } : {}), maxPages: Math.min(step.maxPages, x.cycle.left) }, x);
    x.states.afterListSweep(x.state, list, sweep, r);
    if (r.error) return r.error;
  }
  return undefined;
}

/**
 * A list's scan the budget stopped: its top was read now, so its next scan starts from here (reading
 * the gap again each cycle would need ever more pages and never end); the pages it did not reach go on
 * as its sweep, from where it stopped down to its floor, with what later cycles have left.
 */
function continueAsSweep(step: ScanStep, list: string, r: ScanResult, x: Execution): void {
  if (r.pages === 0 || step.stop.kind !== 'found') return;
  x.state.readAt.set(list, x.nowMs);
  const floorTs = Math.min(step.stop.coverTs ?? Infinity, step.stop.neededTs ?? Infinity);
  if (r.nextToken === null || r.exhausted || floorTs === Infinity || (r.oldestTs !== null && r.oldestTs < floorTs)) return;
  // Not a new 30-min sweep: ending it leaves the list's sweep as due as it was.
  const going = x.state.listSweeps.get(list);
  x.state.listSweeps.set(list, {
    token: r.nextToken,
    floorTs: Math.min(floorTs, going?.floorTs ?? Infinity),
    startedAt: going?.startedAt ?? x.state.sweptAt.get(list) ?? 0,
  });
}

/** Asks the single-message operation for each ID, within the cycle's budget, feeding the engine and the hooks. */
const askById = (ids: readonly string[], x: Execution): Promise<ErrorInfo | null> =>
  recheckById(x.client, ids, {
    network: x.state.network,
    engine: x.engine,
    cycle: x.cycle,
    onTransitions: x.onTransitions,
    onMessages: (m) => notifyHooks(x, m),
  });

/** The due messages a list's scan left below its page cap for them (to ask by ID). */
function belowNeedPages(stop: StopRule, r: ScanResult): string[] {
  if (stop.kind !== 'found' || stop.needPages === undefined || r.exhausted) return [];
  const passed = stop.neededTs !== null && r.oldestTs !== null && r.oldestTs < stop.neededTs;
  return passed ? [] : stop.need.filter((id) => !r.seen.has(id));
}

/** The scan from the top, the echoes due (echo mode), then the re-checks it did not cover: by address, then by ID. */
async function discoverByFirehose(
  d: FirehoseDiscovery,
  x: Execution,
  fullOverlap: boolean,
  echo: boolean,
  baselinesWaiting: boolean,
): Promise<{ error: ErrorInfo | null; next: string | null }> {
  const r = await readPages(d.head, x);
  x.states.afterHeadScan(x.state, r, x.nowMs, d.head.stop.kind === 'past' ? d.head.stop.ts : null, echo);
  if (r.error || r.outOfBudget) return { error: r.error, next: null };
  keepForBaselines(x, baselinesWaiting);
  const sweeping = startRecheckSweep(d, r, x);
  const reached = reachedStop(d.head.stop, r);
  if (fullOverlap && reached) x.state.lateness.fullDone(x.nowMs);
  const next = reached && !r.exhausted && !echo ? r.nextToken : null;
  // The echoes due come before the re-checks, with a share they always get: the queue never grows
  // for want of requests while a cycle's news fits (ECHO_SHARE); the re-checks get the rest.
  if (x.state.echoes.length) {
    const error = await readEchoes(x, false, Math.ceil(x.cycle.left * ECHO_SHARE));
    if (error) return { error, next };
  }
  // A re-check sweep reads the due messages above its floor; fresh ones are still asked at once.
  const followUps = planFollowUps(sweeping ? leftToSweep(d, sweeping.floorTs, x.nowMs) : d, r);
  for (const step of followUps.scans) {
    const a = await readPages(step, x);
    if (a.error || a.outOfBudget) return { error: a.error, next };
  }
  const error = await askById(followUps.byId, x);
  return { error, next };
}

/** The re-check sweep owed (echoes.ts' recheckSweep), started now when the due messages below this read make one pay. */
function startRecheckSweep(d: FirehoseDiscovery, r: ScanResult, x: Execution): Echo | null {
  const owed = x.state.echoes.find((e) => e.recheck);
  if (owed) return owed;
  const sweep = recheckSweep(r, d.candidates, x.state.densityPerSec ?? x.state.ratePerSec ?? 0, x.nowMs, x.cycle.left, Math.floor(x.cycle.left * ECHO_SHARE));
  if (sweep) x.state.echoes.push(sweep);
  return sweep;
}

/** The re-checks a sweep down to `floorTs` leaves to ask: the fresh ones (quick detection) and those below its floor. */
function leftToSweep(d: FirehoseDiscovery, floorTs: number, nowMs: number): FirehoseDiscovery {
  const keep = (c: { ts: number }) => c.ts < floorTs || nowMs - c.ts * 1000 < FRESH_AGE_MS;
  const byAddress = new Map([...d.rechecks.byAddress].map(([a, cs]) => [a, cs.filter(keep)] as const).filter(([, cs]) => cs.length));
  return { ...d, candidates: d.candidates.filter(keep), rechecks: { ...d.rechecks, byAddress, byId: d.rechecks.byId.filter(keep) } };
}

/**
 * The owed echoes (echoes.ts), oldest span first, that are due (`early`: due GUARANTEED_LATENESS_S on and
 * not read early yet), within `share` requests; each goes on from its page next cycle. Returns a hard error, or null.
 */
async function readEchoes(x: Execution, early: boolean, share: number): Promise<ErrorInfo | null> {
  const s = x.state;
  // Due by the clock: a list gone quiet (its top stopped) still gets its echoes; what an indexer stall held
  // back is read by the stall's own echo once it resumes (NetworkStates.afterHeadScan).
  const topTs = Math.floor(x.nowMs / 1000);
  // Right after a stall, what it held back reappears over some minutes: the spans from before it wait for that.
  const heldBelowTs = s.stall && x.nowMs - s.stall.resumedAt < STALL_CATCH_UP_MS ? s.stall.fromTs : null;
  for (const e of echoReadOrder(s.echoes)) {
    if (share <= 0 || x.cycle.left === 0) return null;
    const earlyRead = early && !e.gap; // a gap is read in full whenever there is room
    if (!echoDue(e, topTs, earlyRead) || (!e.gap && heldBelowTs !== null && e.topTs <= heldBelowTs)) continue;
    const r = await readPages(echoStep(e, Math.min(share, x.cycle.left), s.head?.ts ?? null, earlyRead), x);
    share -= r.pages;
    x.states.afterEcho(s, e, r, earlyRead);
    if (r.outOfBudget) return null;
    if (r.error) return r.error;
  }
  return null;
}

/**
 * The baselines end: at or below the oldest second they read (over every cycle they took) is history.
 * That second itself too: its records may run on over the next page the baseline did not read (the
 * list orders by second only), and one of those met later would otherwise pass for news. Returns that
 * floor (s; null: none).
 */
function finishBaselines(watchers: readonly string[], r: ScanResult, progress: BaselineProgress | null, x: Execution): number | null {
  const oldest = r.oldestTs === null ? (progress?.oldestTs ?? null) : Math.min(r.oldestTs, progress?.oldestTs ?? Infinity);
  const floor = r.exhausted || oldest === null ? null : oldest + 1;
  // Stopped at its page cap (BASELINE_MAX_PAGES) with open history maybe below: the watch says where it was cut.
  for (const w of watchers) x.watches.finishBaseline(w, floor, r.capped ? floor : null);
  return floor;
}
