/**
 * A relayer's counter reads over time, and what it did between them: counters only grow while the
 * relayer runs, so a value lower than the read before means it restarted (from zero), and the new value
 * is all it did since. Kept in memory for one comparison window plus the read before it.
 */
import { routeKey, type OwnCounters } from './relayer-own-metrics';

export interface OwnSample {
  at: number;
  counters: OwnCounters;
}

export interface OwnRouteWindow {
  sourceChain: string;
  destinationChain: string;
  delivered: number;
  /** By reason. */
  failed: Map<string, number>;
  latencyMs: number | null;
}

export interface OwnWindow {
  /** The read the counts start from, and the last read. */
  from: number;
  to: number;
  routes: Map<string, OwnRouteWindow>;
}

/** What a counter did between two reads: the difference, or all of it after a restart. */
const grew = (before: number | undefined, now: number) => (before === undefined || now < before ? now : now - before);

export class OwnHistory {
  private samples: OwnSample[] = [];

  add(s: OwnSample, windowMs: number): void {
    this.samples.push(s);
    // Keep the window's reads and the last one before it (the window's counts start there).
    const start = s.at - windowMs;
    const firstIn = this.samples.findIndex((x) => x.at >= start);
    if (firstIn > 1) this.samples = this.samples.slice(firstIn - 1);
  }

  get last(): OwnSample | undefined {
    return this.samples.at(-1);
  }

  /** The counts between the window's base read and the last read (null before two reads: the first is a baseline). */
  window(windowMs: number): OwnWindow | null {
    const last = this.samples.at(-1);
    if (!last || this.samples.length < 2) return null;
    let base = 0;
    for (let i = 0; i < this.samples.length - 1; i++) if (this.samples[i]!.at <= last.at - windowMs) base = i;
    const routes = new Map<string, OwnRouteWindow>();
    for (let i = base + 1; i < this.samples.length; i++) {
      const before = this.samples[i - 1]!.counters.routes;
      for (const [key, r] of this.samples[i]!.counters.routes) {
        let w = routes.get(key);
        if (!w) routes.set(key, (w = { sourceChain: r.sourceChain, destinationChain: r.destinationChain, delivered: 0, failed: new Map(), latencyMs: null }));
        const prev = before.get(key);
        w.delivered += grew(prev?.delivered, r.delivered);
        for (const [reason, n] of r.failed) w.failed.set(reason, (w.failed.get(reason) ?? 0) + grew(prev?.failed.get(reason), n));
        w.latencyMs = r.latencyMs ?? w.latencyMs;
      }
    }
    return { from: this.samples[base]!.at, to: last.at, routes };
  }
}

export { routeKey };
