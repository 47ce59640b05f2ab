/**
 * What the service counted, per caller: the CU and requests it charged (refused calls are not charged,
 * only counted apart), by UTC day and by minute, and the paths asked. The one count every bench judges spend by: never the
 * core's own counters. A caller is an API key, or `anonymous` (the core at the keyless plan).
 */
import type { Charge } from '../src/local-service/options';
import type { Clock } from '../src/shared/clock';
import { DAY_MS, MINUTE_MS } from '../src/shared/time';

interface CallerCount {
  cu: number;
  requests: number;
  cuByDay: Map<number, number>;
  cuByMinute: Map<number, number>;
  paths: { at: number; path: string }[];
  byOperation: Map<string, number>;
}

/** Which operation a charged path is: where a caller's requests went. */
export function operationOf(path: string): 'list' | 'byId' | 'address' | 'other' {
  if (/\/addresses\/[^/]+\/messages$/.test(path)) return 'address';
  if (/\/messages\/[^/]+$/.test(path)) return 'byId';
  if (/\/messages$/.test(path)) return 'list';
  return 'other';
}

export class ServiceCount {
  private readonly callers = new Map<string, CallerCount>();
  private readonly refusals = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    /** Keep each charged path with its time (balance reads per wallet); off by default (memory). */
    private readonly keepPaths = false,
  ) {}

  /** Give this to the service (startBenchService's `onCharge`). */
  readonly onCharge = (c: Charge): void => {
    const who = c.key ?? 'anonymous';
    let n = this.callers.get(who);
    if (!n) this.callers.set(who, (n = { cu: 0, requests: 0, cuByDay: new Map(), cuByMinute: new Map(), paths: [], byOperation: new Map() }));
    const now = this.clock.now();
    n.cu += c.cu;
    n.requests++;
    const day = Math.floor(now / DAY_MS);
    n.cuByDay.set(day, (n.cuByDay.get(day) ?? 0) + c.cu);
    const minute = Math.floor(now / MINUTE_MS);
    n.cuByMinute.set(minute, (n.cuByMinute.get(minute) ?? 0) + c.cu);
    if (this.keepPaths) n.paths.push({ at: now, path: c.path });
    const op = operationOf(c.path);
    n.byOperation.set(op, (n.byOperation.get(op) ?? 0) + 1);
  };

  /** Give this to the service (startBenchService's `onRefused`): each 429 the rate limit answered. */
  readonly onRefused = (c: Charge): void => {
    const who = c.key ?? 'anonymous';
    this.refusals.set(who, (this.refusals.get(who) ?? 0) + 1);
  };

  /** Requests of a caller the service refused with 429 (never charged). */
  refused(caller: string): number {
    return this.refusals.get(caller) ?? 0;
  }

  /** CU charged to a caller (an API key, or `anonymous`) since the start. */
  cu(caller: string): number {
    return this.callers.get(caller)?.cu ?? 0;
  }

  requests(caller: string): number {
    return this.callers.get(caller)?.requests ?? 0;
  }

  /** CU charged to a caller on the UTC day holding `atMs`. */
  cuOnDay(caller: string, atMs: number): number {
    return this.callers.get(caller)?.cuByDay.get(Math.floor(atMs / DAY_MS)) ?? 0;
  }

  /** The most CU charged to a caller in one clock minute. */
  peakMinuteCu(caller: string): number {
    return Math.max(0, ...(this.callers.get(caller)?.cuByMinute.values() ?? []));
  }

  /** Requests charged to a caller by operation (list, byId, address, other). */
  operations(caller: string): Record<string, number> {
    return Object.fromEntries(this.callers.get(caller)?.byOperation ?? []);
  }

  /** The paths charged to a caller, with their times (only with `keepPaths`). */
  paths(caller: string): readonly { at: number; path: string }[] {
    return this.callers.get(caller)?.paths ?? [];
  }
}
