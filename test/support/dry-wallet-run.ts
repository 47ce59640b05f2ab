/**
 * The dry-wallet world on the real core, polled every 5 simulated minutes: what the core's fuel tests
 * watch. The local service with the dry demo wallet and no history (it opens at 13:00 with its few dozen
 * deliveries, runs dry, and is refilled at 14:00), behind a recording proxy that keeps every request's
 * target, and a core watching the dry wallet's relayer and the steady ones with every route they deliver
 * on (so the records hold all their spending). What is opened is closed by the cleanups given.
 */
import { startLocalService, type DemoRelayer, type SimulatedService } from '../../src/local-service';
import type { MonitorCore } from '../../src/core/monitor-core';
import type { NotificationPayload } from '../../src/shared/contract';
import type { RelayerEconomics } from '../../src/shared/relayers';
import { JumpClock } from '../core/http-helpers';
import { coreOnService } from '../core/core-on-service';
import { recordingProxy } from '../core/relayers/recording-proxy';

export const CYCLE_MS = 5 * 60_000;

export interface DryWalletRun {
  clock: JumpClock;
  svc: SimulatedService;
  core: MonitorCore;
  dry: { relayer: string; blockchainId: string };
  /** The relayers watched: the dry wallet's and the steady ones. */
  watched: DemoRelayer[];
  /** Every notification the core showed, with the clock when it did. */
  shown: (NotificationPayload & { at: number })[];
  /** Every request's target (path and query) at the service, in order. */
  targets: string[];
}

/** A cycle as the run saw it: the clock at its poll, the requests so far, and the economics right after. */
export interface DryWalletCycle {
  now: number;
  targets: string[];
  econ: RelayerEconomics;
}

/**
 * Starts the world at `start`, then polls from `start` through `end` (inclusive) every 5 minutes, calling
 * `onCycle` after each poll. The simulator catches up once a simulated minute (not every second): its
 * ticks fall on the whole minutes the polls are at, so the core reads the same records for less work.
 */
export async function dryWalletRun(
  o: { start: number; end: number; onCycle?: (c: DryWalletCycle, run: DryWalletRun) => void },
  cleanups: (() => Promise<void> | void)[],
): Promise<DryWalletRun> {
  const clock = new JumpClock(o.start);
  const svc = await startLocalService({
    clock,
    rate: 2,
    dryWallet: true,
    warmStore: false,
    tickMs: 60_000,
    rateLimitPerMinute: { keyed: 1e6, anonymous: 1e6 },
  });
  cleanups.push(() => svc.close());
  const proxy = await recordingProxy(svc.url);
  cleanups.push(() => proxy.close());
  const dry = svc.simulator.wallets.dry!;
  const info = (await (await fetch(`${svc.url}/_local/info`)).json()) as { demoRelayers: DemoRelayer[] };
  const core = await coreOnService(proxy.url, clock, cleanups);
  const shown: DryWalletRun['shown'] = [];
  core.attachNotifier((n) => void shown.push({ ...n, at: clock.now() }));
  const call = async <T>(method: string, input?: unknown): Promise<T> => {
    const r = await core.invoke(method, input);
    if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
    return r.value as T;
  };
  const watched = info.demoRelayers.filter((r) => r.routes.length && (r.address.toLowerCase() === dry.relayer || r.behaviour === 'steady'));
  const seen = new Set<string>();
  for (const relayer of watched) {
    for (const r of relayer.routes) {
      const key = `${r.source}>${r.destination}`;
      if (seen.has(key)) continue;
      seen.add(key);
      await call('addRoute', { source: r.source, destination: r.destination, alert: false });
    }
    await call('addRelayer', { address: relayer.address, label: relayer.name, alert: false });
  }
  const run: DryWalletRun = { clock, svc, core, dry, watched, shown, targets: proxy.targets };
  while (clock.now() <= o.end) {
    await call('pollNow');
    const econ = await call<RelayerEconomics>('relayerEconomics');
    o.onCycle?.({ now: clock.now(), targets: proxy.targets, econ }, run);
    await clock.advance(CYCLE_MS);
  }
  return run;
}
