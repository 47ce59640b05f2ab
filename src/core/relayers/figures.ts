/**
 * The Relayers view's figures, computed from the deliveries and pending messages of the watched
 * routes: pure, so the same numbers come out of the core, the tests and a benchmark's truth.
 */
import type { LatencyFigures, RelayerRow, RouteRow, WatchedRelayer, WatchedRoute } from '../../shared/relayers';
import { canonicalNetwork, type Network } from '../../shared/validators';
import { percentile } from '../store/stats';
import type { Delivery, Pending } from './delivery-record';
import { routesOf } from './route-match';
import { gasByChain, rewardsByToken } from './token-sums';

export const HOUR_MS = 3_600_000;
export const WINDOW_MS = 24 * HOUR_MS;
export const BUCKET_MS = HOUR_MS;
const TOP_RELAYERS = 3;

export interface FigureInputs {
  now: number;
  relayers: readonly WatchedRelayer[];
  routes: readonly WatchedRoute[];
  /** Delivered messages (any age) and pending messages; those on no watched route are left out. */
  deliveries: readonly Delivery[];
  pending: readonly Pending[];
}

/** A delivery with the relayer it counts for and the watched routes it travelled. */
export interface Attributed {
  delivery: Delivery;
  /** The watched relayer's address, else the deliverer's. */
  relayer: string;
  routeIds: string[];
}

const relayerKey = (address: string, network: Network) => `${canonicalNetwork(network)}:${address.toLowerCase()}`;

/** The watched relayer a delivery counts for: its deliverer, else its reward address, on the same network. */
export function watchedRelayerOf(relayers: readonly WatchedRelayer[], d: Delivery): WatchedRelayer | undefined {
  const net = canonicalNetwork(d.network);
  const on = relayers.filter((r) => canonicalNetwork(r.network) === net);
  const is = (a: string) => (r: WatchedRelayer) => r.address.toLowerCase() === a.toLowerCase();
  return on.find(is(d.deliverer)) ?? on.find(is(d.rewardAddress));
}

/** Deliveries on watched routes, each attributed to one relayer. */
export function attribute(inputs: Pick<FigureInputs, 'relayers' | 'routes' | 'deliveries'>): Attributed[] {
  const out: Attributed[] = [];
  for (const d of inputs.deliveries) {
    const routeIds = routesOf(inputs.routes, d.chains, d.network).map((r) => r.id);
    if (!routeIds.length) continue;
    out.push({ delivery: d, relayer: watchedRelayerOf(inputs.relayers, d)?.address ?? d.deliverer, routeIds });
  }
  return out;
}

/** Seconds from source to destination transaction of deliveries that carry both times; null when none does. */
export function latencyOf(deliveries: Iterable<Delivery>): LatencyFigures | null {
  const s: number[] = [];
  for (const d of deliveries) if (d.sentAt !== null) s.push((d.deliveredAt - d.sentAt) / 1000);
  if (!s.length) return null;
  s.sort((a, b) => a - b);
  return { p50: percentile(s, 50) as number, p95: percentile(s, 95) as number, count: s.length };
}

const inWindow = (now: number, span: number) => (a: Attributed) => a.delivery.deliveredAt > now - span && a.delivery.deliveredAt <= now;

export function relayerRows(inputs: FigureInputs, attributed: readonly Attributed[] = attribute(inputs)): RelayerRow[] {
  const { now } = inputs;
  const day = attributed.filter(inWindow(now, WINDOW_MS));
  const routeTotals = new Map<string, number>();
  for (const a of day) for (const id of a.routeIds) routeTotals.set(id, (routeTotals.get(id) ?? 0) + 1);

  const groups = new Map<string, { address: string; network: Network; all: Attributed[] }>();
  const group = (address: string, network: Network) => {
    const k = relayerKey(address, network);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { address, network, all: [] }));
    return g;
  };
  // Watched relayers first, in the order they were added; each has a row even with no deliveries.
  for (const r of inputs.relayers) group(r.address, r.network);
  for (const a of attributed) group(a.relayer, a.delivery.network).all.push(a);

  const watched = new Map(inputs.relayers.map((r) => [relayerKey(r.address, r.network), r]));
  const rows = [...groups].map(([k, g]) => rowOf(g, watched.get(k), now, routeTotals));
  const firstUnwatched = inputs.relayers.length;
  const others = rows.slice(firstUnwatched).sort((a, b) => b.deliveries24h - a.deliveries24h || a.address.localeCompare(b.address));
  return [...rows.slice(0, firstUnwatched), ...others];
}

function rowOf(
  g: { address: string; network: Network; all: Attributed[] },
  w: WatchedRelayer | undefined,
  now: number,
  routeTotals: Map<string, number>,
): RelayerRow {
  const day = g.all.filter(inWindow(now, WINDOW_MS));
  const dayDeliveries = day.map((a) => a.delivery);
  const perRoute = new Map<string, number>();
  for (const a of day) for (const id of a.routeIds) perRoute.set(id, (perRoute.get(id) ?? 0) + 1);
  const buckets = new Array<number>(WINDOW_MS / BUCKET_MS).fill(0);
  for (const d of dayDeliveries) {
    const i = buckets.length - 1 - Math.floor((now - d.deliveredAt) / BUCKET_MS);
    if (i >= 0) buckets[i] = (buckets[i] ?? 0) + 1;
  }
  const last = g.all.reduce<number | null>((m, a) => (m === null || a.delivery.deliveredAt > m ? a.delivery.deliveredAt : m), null);
  return {
    address: g.address,
    network: g.network,
    watched: w !== undefined,
    label: w?.label ?? '',
    rewardAddresses: [...new Set(g.all.map((a) => a.delivery.rewardAddress))].sort(),
    deliveriesLastHour: g.all.filter(inWindow(now, HOUR_MS)).length,
    deliveries24h: day.length,
    routes: [...perRoute].map(([routeId, n]) => ({ routeId, deliveries: n, share: n / (routeTotals.get(routeId) ?? n) })),
    latency: latencyOf(dayDeliveries),
    gas: gasByChain(dayDeliveries),
    rewards: rewardsByToken(dayDeliveries),
    lastDeliveryAt: last,
    buckets,
  };
}

export function routeRows(inputs: FigureInputs, attributed: readonly Attributed[] = attribute(inputs)): RouteRow[] {
  const { now } = inputs;
  const labels = new Map(inputs.relayers.map((r) => [relayerKey(r.address, r.network), r.label]));
  return inputs.routes.map((route) => {
    const mine = attributed.filter((a) => a.routeIds.includes(route.id));
    const day = mine.filter(inWindow(now, WINDOW_MS));
    const pending = inputs.pending.filter((p) => routesOf([route], p.chains, p.network).length > 0);
    const by = new Map<string, number>();
    for (const a of day) by.set(a.relayer, (by.get(a.relayer) ?? 0) + 1);
    const top = [...by]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, TOP_RELAYERS)
      .map(([address, n]) => ({ address, label: labels.get(relayerKey(address, route.network)) ?? '', deliveries: n, share: n / day.length }));
    return {
      route,
      pending: pending.length,
      oldestPendingSince: pending.reduce<number | null>((m, p) => (m === null || p.sentAt < m ? p.sentAt : m), null),
      deliveriesLastHour: mine.filter(inWindow(now, HOUR_MS)).length,
      deliveries24h: day.length,
      latency: latencyOf(day.map((a) => a.delivery)),
      topRelayers: top,
    };
  });
}
