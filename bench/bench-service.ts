/** The local service as the core and headless benchmarks run it: a fixed seed, history, and either no rate limit a benchmark could meet or a public plan's. */
import { startLocalService, type SimulatedService, type SimulatedServiceOptions } from '../src/local-service';
import type { PlanName } from '../src/shared/plans';
import type { Charge } from '../src/local-service/options';
import type { Clock } from '../src/shared/clock';

export interface BenchWorld {
  rate: number;
  addresses: number;
  /** Messages of history written before the bench starts (default 20,000). */
  preload?: number;
  /** The simulator's realistic profile (indexing lag, loose list order, sparse routes, ...). */
  realistic?: boolean;
  /** The lag's long tail: rare indexer stalls of 30-120 minutes (src/simulator/indexer-stalls.ts). */
  stalls?: boolean;
  /**
   * Upstream faults at seeded per-request rates, a fault spec of the service (src/local-service/faults.ts),
   * e.g. UPSTREAM_FAULTS: 5xx, 429 with the public headers, requests never answered, resets, malformed bodies.
   */
  faults?: string;
  /** The public plans' CU limits (a key on Free, no key unauthenticated) instead of a limit no bench meets. */
  publicLimits?: boolean;
  /**
   * A world that moves while a client reads: each request the service counts moves the simulator on by
   * this many ms (never more than `maxAheadMs` ahead of the clock), before it is answered.
   */
  moveWorld?: { perRequestMs: number; maxAheadMs: number; when?: () => boolean };
  /** Told each request the service counts, with its CU and caller (the day's spend). */
  onCharge?: (charge: Charge) => void;
  /** Told each request the rate limit refused (429), with its caller (ServiceCount.onRefused). */
  onRefused?: (charge: Charge) => void;
  /** Accepted API keys (a key's calls count on the keyed plan). */
  apiKeys?: string[];
  /** How often (clock ms) the simulator catches up with the clock at most (default 1000). */
  tickMs?: number;
  /**
   * Every caller, with or without a key, on this public plan's CU limits, each key its own quota (the
   * fair pollers' keys: FAIR_POLLER_KEYS). Absent: `publicLimits`, or limits no benchmark meets.
   */
  plan?: PlanName;
}

/** One API key per fair poller: each has its own quota at the same plan, apart from the core's (no key). */
export const FAIR_POLLER_KEYS = { list: 'bench-fair-list-poller', perAddress: 'bench-fair-address-poller' } as const;

/**
 * A rare mix of upstream faults for long runs (about 1 request in 50 fails): 5xx bursts, 429 with
 * Retry-After, a request never answered (the client's 15 s timeout, in real time: kept rare), resets
 * and malformed 200s.
 */
export const UPSTREAM_FAULTS = '5xx:0.01,burst:2,429:0.005,retryAfter:2,timeout:0.0004,timeoutMs:20000,reset:0.002,malformed:0.002';

export async function startBenchService(clock: Clock, o: BenchWorld): Promise<SimulatedService> {
  let svc: SimulatedService | null = null;
  const move = o.moveWorld;
  const onCharge = (c: Charge) => {
    o.onCharge?.(c);
    if (!move || !svc || (move.when && !move.when())) return;
    const sim = svc.simulator;
    const step = Math.min(move.perRequestMs, clock.now() + move.maxAheadMs - sim.now());
    if (step > 0) sim.step(step);
  };
  const options: SimulatedServiceOptions = {
    clock,
    seed: 42,
    rate: o.rate,
    addressCount: o.addresses,
    preload: o.preload ?? 20_000,
    ...(o.realistic ? { realistic: true } : {}),
    ...(o.stalls ? { stalls: true } : {}),
    ...(o.faults ? { faults: o.faults } : {}),
    ...(o.tickMs ? { tickMs: o.tickMs } : {}),
    ...(o.onCharge || move ? { onCharge } : {}),
    ...(o.onRefused ? { onRefused: o.onRefused } : {}),
  };
  // The fair pollers' keys always: the service then counts each poller apart, with or without a plan.
  const keys = [...(o.apiKeys ?? []), ...Object.values(FAIR_POLLER_KEYS)];
  if (keys.length) options.apiKeys = keys;
  if (o.plan) options.computeUnits = { keyed: o.plan, anonymous: o.plan };
  else if (o.publicLimits) options.computeUnits = { keyed: 'free', anonymous: 'unauthenticated' };
  // The pollers compared share one service: without a plan its limit must not throttle any of them.
  else options.rateLimitPerMinute = { keyed: 1_000_000, anonymous: 1_000_000 };
  svc = await startLocalService(options);
  return svc;
}

/**
 * Brings the world up to the clock before a cycle reads. With a coarse `tickMs` the world follows the
 * clock only every few seconds, so a change due just before a cycle's time would be written (and timed
 * by the truth as visible) while that cycle already reads: visible by the truth's clock, unreadable by
 * the reader's. Call after every clock advance that a reader then polls at.
 */
export function worldAtClock(svc: SimulatedService, clock: Clock): void {
  const behind = clock.now() - svc.simulator.now();
  if (behind > 0) svc.simulator.step(behind);
}
