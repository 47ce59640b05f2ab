/**
 * Relayers with distinct, seeded behaviour: which relayer delivers a message on a route, and when.
 * A fast and a slow one, one that stops delivering for a stretch and comes back (what it would deliver
 * waits until it returns), one that takes over another's share on a route from some moment. Every
 * choice comes from the personas' own random stream, so the rest of a seeded world stays as it was.
 */
import { CHAIN_REGISTRY } from '../shared/chains';
import type { Rng } from '../shared/rng';
import { MINUTE_MS } from '../shared/time';

export type RelayerBehaviour = 'fast' | 'slow' | 'outage' | 'takeover' | 'steady';

/** A route by cb58 blockchain IDs. */
export interface RouteRef {
  source: string;
  destination: string;
}

/** A stretch of time, ms after the simulator's start (negative: before it, e.g. in a preload); `everyMs` repeats it. */
export interface TimeSpan {
  startMs: number;
  durationMs: number;
  everyMs?: number;
}

export interface Slowdown extends TimeSpan {
  /** Delivery delays of messages sent inside the span are multiplied by this. */
  factor: number;
}

export interface RelayerPersona {
  name: string;
  behaviour: RelayerBehaviour;
  /** What /_local/info says of it (default: written from the schedule). */
  description?: string;
  /** EIP-55 address (default: the simulator's next relayer address). */
  address?: string;
  /** The routes it delivers on; absent: every route no other persona lists. */
  routes?: RouteRef[];
  /** Its weight among the relayers of a route. */
  share: number;
  /** Multiplies the world's delivery delay (log-normal, median 12 s); default 1. */
  delayFactor?: number;
  /** It delivers nothing inside these; a delivery falling in one waits until the span ends. */
  outages?: TimeSpan[];
  slowdowns?: Slowdown[];
  /** On its routes: no share before `atMs`; from then on it also has `from`'s share, and `from` none there. */
  takeover?: { from: string; atMs: number };
}

export interface RelayerSchedule {
  relayers: RelayerPersona[];
}

/** What /_local/info tells of each relayer (the renderer's "Watch a demo relayer" reads exactly this). */
export interface DemoRelayer {
  address: string;
  name: string;
  behaviour: RelayerBehaviour;
  description: string;
  routes: RouteRef[];
  /** The alert kinds watching it (with its routes) shows (demo-shows.ts). */
  shows?: string[];
}

/** Returning relayers work through their backlog over this long (divided by speed). */
const RETURN_SPREAD_MS = 20_000;

const routeKey = (source: string, destination: string) => `${source}>${destination}`;

/** Every route of the registry: two different chains of one network. */
export function allRoutes(): RouteRef[] {
  const out: RouteRef[] = [];
  for (const a of CHAIN_REGISTRY.chains)
    for (const b of CHAIN_REGISTRY.chains) if (a !== b && a.network === b.network) out.push({ source: a.blockchainId, destination: b.blockchainId });
  return out;
}

/** Where `t` (ms after the start) falls in the span: ms since the span began, or null outside it. */
function inSpan(s: TimeSpan, t: number): number | null {
  let from = t - s.startMs;
  if (s.everyMs) from = ((from % s.everyMs) + s.everyMs) % s.everyMs;
  return from >= 0 && from < s.durationMs ? from : null;
}

const mins = (ms: number) => `${Math.round((ms / MINUTE_MS) * 10) / 10} min`;

function describe(p: RelayerPersona): string {
  if (p.description) return p.description;
  const f = p.delayFactor ?? 1;
  const out: string[] = [];
  if (f !== 1) out.push(`${f < 1 ? 'Fast' : 'Slow'}: delivers in about ${Math.round(12 * f)} s (median).`);
  for (const o of p.outages ?? [])
    out.push(
      o.everyMs
        ? `Stops delivering for ${mins(o.durationMs)} every ${mins(o.everyMs)}, first ${mins(o.startMs)} after the service starts; what it would deliver waits until it is back.`
        : `Stops delivering for ${mins(o.durationMs)} from ${mins(o.startMs)} after the service starts; what it would deliver waits until it is back.`,
    );
  for (const s of p.slowdowns ?? []) out.push(`Slows down ${s.factor}x for ${mins(s.durationMs)} from ${mins(s.startMs)} after the service starts.`);
  if (p.takeover) out.push(`Takes over ${p.takeover.from}'s share of its routes ${mins(p.takeover.atMs)} after the service starts.`);
  return out.length ? out.join(' ') : 'Delivers steadily at the usual pace.';
}

export class RelayerPersonas {
  readonly personas: readonly (RelayerPersona & { address: string })[];
  private readonly byRoute = new Map<string, number[]>();
  private readonly fallback: number[];

  /**
   * `originMs`: the simulator's start, which the schedule counts from. `addresses`: the simulator's
   * relayer addresses, given in order to personas without their own.
   */
  constructor(
    schedule: RelayerSchedule,
    addresses: readonly string[],
    /** The personas' own stream (not the traffic's), so turning them on leaves the rest of the world as it was. */
    private readonly rng: Rng,
    private readonly originMs: number,
  ) {
    if (!schedule.relayers.length) throw new Error('A relayer schedule needs at least one relayer.');
    let next = 0;
    this.personas = schedule.relayers.map((p) => ({ ...p, address: p.address ?? (addresses[next++] as string) }));
    const names = new Set(this.personas.map((p) => p.name));
    for (const p of this.personas) {
      if (p.takeover && !names.has(p.takeover.from)) throw new Error(`Relayer ${p.name} takes over "${p.takeover.from}", which is not in the schedule.`);
      if (!p.address) throw new Error(`Relayer ${p.name} has no address.`);
    }
    this.personas.forEach((p, i) => {
      for (const r of p.routes ?? []) {
        const k = routeKey(r.source, r.destination);
        this.byRoute.set(k, [...(this.byRoute.get(k) ?? []), i]);
      }
    });
    this.fallback = this.personas.flatMap((p, i) => (p.routes ? [] : [i]));
  }

  /** A route some persona lists by name (the demo's pair), not one left to the catch-all relayers. */
  listsRoute(source: string, destination: string): boolean {
    return this.byRoute.has(routeKey(source, destination));
  }

  /** The relayer of a message on this route sent at `at` (epoch ms): by share, with takeovers applied. */
  pick(source: string, destination: string, at: number): RelayerPersona & { address: string } {
    const eligible = this.byRoute.get(routeKey(source, destination)) ?? (this.fallback.length ? this.fallback : this.personas.map((_, i) => i));
    const t = at - this.originMs;
    const weights = eligible.map((i) => this.personas[i]!.share);
    eligible.forEach((i, k) => {
      const take = this.personas[i]!.takeover;
      if (!take) return;
      if (t < take.atMs) {
        weights[k] = 0;
        return;
      }
      const v = eligible.findIndex((j) => this.personas[j]!.name === take.from);
      if (v < 0) return;
      weights[k]! += this.personas[eligible[v]!]!.share;
      weights[v] = 0;
    });
    const total = weights.reduce((a, b) => a + b, 0);
    const chosen = total > 0 ? this.rng.weighted(eligible.map((i, k) => [i, weights[k]!] as const)) : this.rng.pick(eligible);
    return this.personas[chosen]!;
  }

  /**
   * When `p` delivers a message sent at `sentAt` whose world delay is `delayMs`: its pace, a slow-down,
   * and an outage (a delivery falling inside one waits until the relayer is back).
   */
  deliverAt(p: RelayerPersona, sentAt: number, delayMs: number, speed: number, bounds: { min: number; max: number }): number {
    const t = sentAt - this.originMs;
    let factor = p.delayFactor ?? 1;
    for (const s of p.slowdowns ?? []) if (inSpan(s, t) !== null) factor *= s.factor;
    const delay = factor === 1 ? delayMs : Math.min(bounds.max, Math.max(bounds.min, delayMs * factor));
    const at = sentAt + Math.round(delay);
    for (const o of p.outages ?? []) {
      const into = inSpan(o, at - this.originMs);
      if (into !== null) return at - into + o.durationMs + Math.round((this.rng.next() * RETURN_SPREAD_MS) / speed);
    }
    return at;
  }

  /** The relayers as /_local/info names them, with the routes each delivers on. */
  describe(): DemoRelayer[] {
    const listed = new Set(this.byRoute.keys());
    const rest = allRoutes().filter((r) => !listed.has(routeKey(r.source, r.destination)));
    return this.personas.map((p) => ({
      address: p.address,
      name: p.name,
      behaviour: p.behaviour,
      description: describe(p),
      routes: (p.routes ?? rest).map((r) => ({ source: r.source, destination: r.destination })),
    }));
  }
}

/**
 * The demo's relayers (on by default): on the always-busy mainnet route pair (C-Chain and the first
 * L1 of the registry, both ways) a fast, a slow, an outage and a takeover relayer; two steady ones on
 * every other route. The outage begins 2 min after the start and lasts 6 min, every 15 min (unless the
 * demo day says otherwise), so a newcomer watching it sees a relayer-silent alert within minutes.
 */
export function demoSchedule(outage: TimeSpan = { startMs: 2 * MINUTE_MS, durationMs: 6 * MINUTE_MS, everyMs: 15 * MINUTE_MS }): RelayerSchedule {
  const mainnet = CHAIN_REGISTRY.chains.filter((c) => c.network === 'mainnet');
  const c = mainnet.find((x) => x.name === 'C-Chain')!;
  const l1 = mainnet.find((x) => x !== c)!;
  const out = { source: c.blockchainId, destination: l1.blockchainId };
  const back = { source: l1.blockchainId, destination: c.blockchainId };
  return {
    relayers: [
      { name: 'Swift', behaviour: 'fast', routes: [out, back], share: 4, delayFactor: 0.3 },
      { name: 'Tortoise', behaviour: 'slow', routes: [out, back], share: 1, delayFactor: 5 },
      {
        name: 'Blinker',
        behaviour: 'outage',
        routes: [out, back],
        share: 2,
        outages: [outage],
      },
      { name: 'Usurper', behaviour: 'takeover', routes: [out], share: 1, takeover: { from: 'Swift', atMs: 5 * MINUTE_MS } },
      { name: 'Steady A', behaviour: 'steady', share: 1 },
      { name: 'Steady B', behaviour: 'steady', share: 1 },
    ],
  };
}
