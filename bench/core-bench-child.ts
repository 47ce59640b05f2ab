// The core under benchmark, in its own process so its memory is measured alone. The parent drives
// simulated time over IPC: every `tick` sets this process's clock to the parent's time and polls once.
import { serveParent } from './serve-parent';
import { createBenchCore, serviceSource, type ChildInit } from './bench-core';
import type { Transition } from '../src/shared/contract';
import { JumpClock } from './jump-clock';
import { peakRssBytes } from './peak-rss';
import { requestRatePlan } from '../src/shared/plans';
import { RouteView } from './route-view';

type Msg =
  | (ChildInit & {
      addresses: string[];
      intervalSeconds: number;
      /** Requests a minute as custom plan figures; null: the app's default plan. */
      budget: number | null;
      stuckMinutes: number;
      /** Watched routes (source → destination blockchain IDs) and relayers (addresses), beside the addresses. */
      routes?: { source: string; destination: string }[];
      relayers?: string[];
    })
  | { type: 'tick'; now: number }
  | { type: 'close' };

let peakRss = 0;
let ticks = 0;
const sampleRss = () => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
};

/** BENCH_ALLOC_PROFILE=file: samples every allocation (collected ones too) over ticks 5-8. */
let profSession: import('node:inspector').Session | null = null;
async function allocProfile(tick: number): Promise<void> {
  const inspector = await import('node:inspector');
  const post = (method: string, params?: object) =>
    new Promise<unknown>((res, rej) => profSession?.post(method, params ?? {}, (e, r) => (e ? rej(e) : res(r))));
  if (tick === 3) {
    profSession = new inspector.Session();
    profSession.connect();
    await post('HeapProfiler.startSampling', {
      samplingInterval: 16384,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: process.env.BENCH_ALLOC_MINOR !== '0',
    });
  } else if (tick === 13 && profSession) {
    const r = (await post('HeapProfiler.stopSampling')) as { profile: unknown };
    const { writeFileSync } = await import('node:fs');
    writeFileSync(String(process.env.BENCH_ALLOC_PROFILE), JSON.stringify(r.profile));
    profSession.disconnect();
    profSession = null;
  }
}

/** BENCH_DEBUG: where memory peaks, per phase (sampled between awaits). */
const phase = { name: 'load', rss: 0, heapTotal: 0, heapUsed: 0, external: 0 };
const mb = (n: number) => (n / 1048576).toFixed(0);
function endPhase(next: string): void {
  if (!process.env.BENCH_DEBUG) return;
  const m = process.memoryUsage();
  console.error(
    `child phase ${phase.name}: peak rss ${mb(Math.max(phase.rss, m.rss))}, heapTotal ${mb(Math.max(phase.heapTotal, m.heapTotal))}, heapUsed ${mb(Math.max(phase.heapUsed, m.heapUsed))}, external ${mb(Math.max(phase.external, m.external))} MB; peak ${(peakRssBytes() / 1048576).toFixed(0)} MB`,
  );
  Object.assign(phase, { name: next, rss: 0, heapTotal: 0, heapUsed: 0, external: 0 });
}
if (process.env.BENCH_DEBUG) {
  setInterval(() => {
    const m = process.memoryUsage();
    phase.rss = Math.max(phase.rss, m.rss);
    phase.heapTotal = Math.max(phase.heapTotal, m.heapTotal);
    phase.heapUsed = Math.max(phase.heapUsed, m.heapUsed);
    phase.external = Math.max(phase.external, m.external);
  }, 5).unref();
}

async function main(): Promise<void> {
  let clock: JumpClock | null = null;
  let core: Awaited<ReturnType<typeof createBenchCore>> | null = null;
  let fresh: Transition[] = [];
  /** The watched routes' figures as transitions (route-view.ts); null: no route watched. */
  let routes: RouteView | null = null;
  const send = (m: unknown) => process.send?.(m);

  const onMessage = async (m: Msg): Promise<void> => {
    if (m.type === 'init') {
      endPhase('create');
      clock = new JumpClock(m.now);
      core = await createBenchCore(m.dataDir, clock, serviceSource(m.url));
      core.onEvent((e) => {
        if (e.type === 'transitions') fresh.push(...e.transitions);
      });
      await core.start();
      endPhase('addWatch');
      await core.handlers.updateSettings({
        pollIntervalSeconds: m.intervalSeconds,
        ...(m.budget !== null ? { plan: requestRatePlan(m.budget) } : {}),
        stuckThresholdMinutes: m.stuckMinutes,
        notifications: { enabled: false },
      });
      for (const address of m.addresses)
        await core.handlers.addWatch({ address, notify: { new: true, left_pending: true, receipt_delivered: true, stuck: true } });
      for (const r of m.routes ?? []) await core.handlers.addRoute({ source: r.source, destination: r.destination, alert: false });
      for (const address of m.relayers ?? []) await core.handlers.addRelayer({ address, alert: false });
      if (process.env.BENCH_DEBUG)
        console.error(
          `child: after adding watches rss ${(process.memoryUsage().rss / 1048576).toFixed(0)} MB, peak ${(peakRssBytes() / 1048576).toFixed(0)} MB`,
        );
      endPhase('baselines');
      // Silent baselines, within the budget (several cycles at the same instant if need be).
      routes = m.routes?.length ? new RouteView(m.dataDir, m.now) : null;
      for (let i = 0; i < 20 && ((await core.handlers.listWatches(undefined)).some((w) => w.baselinePending) || routes?.baselinePending()); i++)
        await core.handlers.pollNow(undefined);
      routes?.read(clock.now(), true);
      fresh = [];
      sampleRss();
      endPhase('cycles');
      if (process.env.BENCH_DEBUG)
        console.error(`child: after baselines rss ${(process.memoryUsage().rss / 1048576).toFixed(0)} MB, peak ${(peakRssBytes() / 1048576).toFixed(0)} MB`);
      send({ type: 'ready', memory: process.memoryUsage() });
    } else if (m.type === 'tick' && clock && core) {
      await clock.set(m.now);
      if (process.env.BENCH_ALLOC_PROFILE) await allocProfile(ticks + 1);
      if (process.env.BENCH_SNAPSHOT && Number(process.env.BENCH_SNAPSHOT) === ticks + 1) {
        const { writeHeapSnapshot } = await import('node:v8');
        setTimeout(() => console.error('snapshot', writeHeapSnapshot('/tmp/core-mid.heapsnapshot')), Number(process.env.BENCH_SNAPSHOT_DELAY ?? 400));
      }
      const status = await core.handlers.pollNow(undefined);
      sampleRss();
      if (++ticks % 3 === 0) endPhase(`cycles to ${ticks + 3}`);
      const transitions = [...fresh.map((t) => ({ id: t.messageId, kind: t.kind, at: t.at })), ...(routes?.read(clock.now()) ?? [])];
      // The watches still `baselining…` (the Watchlist's tag): the judge's stated limits need when each went live.
      const baselining = (await core.handlers.listWatches(undefined)).filter((w) => w.baselinePending).map((w) => w.address);
      send({ type: 'polled', transitions, status, baselining, memory: process.memoryUsage() });
      fresh = [];
    } else if (m.type === 'close') {
      endPhase('close');
      await core?.close();
      send({ type: 'closed', peakRss: Math.max(peakRss, peakRssBytes()) });
      process.exit(0);
    }
  };
  serveParent(onMessage);
}

void main();
