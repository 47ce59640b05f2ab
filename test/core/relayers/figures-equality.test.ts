/**
 * The relayer figures, conditions, click-through lists and metrics over a realistic cache, against
 * fixed expectations (the snapshot was taken from the array-based figures before they streamed): the
 * streaming pass must give exactly the same numbers, orders and floating-point sums.
 */
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { RelayerMetrics, type RelayerSnapshot } from '../../../src/core/metrics/relayer-metrics';
import { evaluateConditions } from '../../../src/core/relayers/conditions';
import { RelayerFigures } from '../../../src/core/relayers/relayer-figures';
import { openStore, type Store } from '../../../src/core/store';
import type { RelayerFigure, WatchedRoute } from '../../../src/shared/relayers';
import type { Network } from '../../../src/shared/validators';
import { apiRecord, BEAM, C_CHAIN, tempDir } from '../helpers';
import { rowOfRecord } from '../store/store-rig';
import { deliveryRecord, DEXALOT, NOW, type DeliverySpec } from './records';

const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

// Watched addresses are stored lower-case; the records name them check-summed (matching ignores case).
const ALPHA = '0xaaaa00000000000000000000000000000000a001';
const BRAVO = '0xbbbb00000000000000000000000000000000b002';
const QUIET = '0xcccc00000000000000000000000000000000c003';
const GHOST = '0xdddd00000000000000000000000000000000d004';
const FUJI = '0xeeee00000000000000000000000000000000e005';
const ZULU = '0xffff00000000000000000000000000000000f006';
const UNWATCHED = [1, 2, 3, 4, 5, 6].map((i) => `0x${String(i).repeat(4)}00000000000000000000000000000000Ab0${i}`);
const upper = (a: string) => a.replace(/[a-f]/g, (c) => c.toUpperCase()).replace(/^0X/, '0x');

const WAVAX = { token: '0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7', symbol: 'WAVAX', decimals: 18 };
const USDC = { token: '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E', symbol: 'USDC', decimals: 6 };
const ODD = { token: '0x1111111111111111111111111111111111111111', symbol: 'ODD', decimals: 9 };

/** A small deterministic PRNG (mulberry32): the same cache on every run. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let ids = 0;
const nextId = () => (++ids).toString(16).padStart(64, '0');

function keep(store: Store, raw: Record<string, unknown>, network: Network, tracked: boolean): void {
  raw.messageId = nextId();
  store.messages.insert(rowOfRecord(raw, { network, receiptDelivered: false, seenAt: NOW, tracked }));
}

const deliver = (store: Store, s: DeliverySpec, network: Network = 'mainnet') => keep(store, deliveryRecord(s), network, false);

function pendingAt(store: Store, sentAt: number, o: { source?: string; destination?: string; network?: Network; tracked?: boolean } = {}): void {
  const rec = apiRecord({ status: 'pending', ts: Math.floor(sentAt / 1000) });
  if (o.source) rec.sourceBlockchainId = o.source;
  if (o.destination) rec.destinationBlockchainId = o.destination;
  keep(store, rec, o.network ?? 'mainnet', o.tracked ?? true);
}

/** Watches and a day (and more) of deliveries: several relayers, routes, reward tokens and edge times. */
function world(store: Store): void {
  const w = store.relayerWatches;
  const relayer = (address: string, label: string, network: Network, o: { alert?: boolean; silent?: number; pending?: number } = {}, at = 0) =>
    w.addRelayer({
      address,
      label,
      network,
      silentMinutes: o.silent ?? 30,
      pendingMinutes: o.pending ?? 10,
      alert: o.alert ?? true,
      createdAt: NOW - 48 * HOUR + at,
    });
  relayer(ALPHA, 'alpha', 'mainnet');
  relayer(BRAVO, 'bravo', 'mainnet', {}, 1); // watched by its reward address
  relayer(QUIET, 'quiet', 'mainnet', { silent: 60, pending: 5 }, 2); // nothing in 24 h: its last delivery is days old
  relayer(GHOST, '', 'mainnet', {}, 3); // never delivered
  relayer(FUJI, 'fuji', 'testnet', {}, 4); // watched as testnet, records say fuji (the same network)
  relayer(ZULU, 'zulu', 'mainnet', { alert: false }, 5);
  const route = (label: string, network: Network, sourceChain: string, destinationChain: string, backlogMinutes: number, alert = true, at = 0) =>
    w.addRoute({ label, network, sourceChain, destinationChain, backlogMinutes, alert, createdAt: NOW - 48 * HOUR + at });
  route('c-beam', 'mainnet', C_CHAIN, BEAM, 30);
  route('c-dex', 'mainnet', '43114', '432204', 15, true, 1); // by EVM chain IDs
  route('', 'mainnet', BEAM, C_CHAIN, 60, false, 2);
  route('fuji-c-beam', 'fuji', C_CHAIN, BEAM, 10, true, 3);
  route('dex-c', 'mainnet', DEXALOT, C_CHAIN, 20, true, 4); // no traffic

  const rnd = prng(20260101);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const legs = [
    { source: C_CHAIN, destination: BEAM },
    { source: C_CHAIN, destination: DEXALOT },
    { source: BEAM, destination: C_CHAIN },
    { source: DEXALOT, destination: BEAM }, // on no watched route
  ];
  const reward = (): DeliverySpec['reward'] => {
    const r = rnd();
    if (r < 0.35) return { ...USDC, value: String(Math.floor(rnd() * 5_000_000)), price: 1 };
    if (r < 0.55) return { ...WAVAX, value: `${Math.floor(rnd() * 1e6)}${'7'.repeat(12)}`, price: pick([20.5, '31.25', 19.99]) };
    if (r < 0.65) return { ...USDC, value: '1500000' }; // no price: that token's fiat sum is unknown
    if (r < 0.72) return { ...ODD, value: String(Math.floor(rnd() * 1e9)), price: 0.1, currency: 'eur' };
    if (r < 0.8) return { ...ODD, token: ODD.token.toUpperCase().replace('0X', '0x'), value: '0', price: 0.2, currency: 'eur' };
    if (r < 0.85) return { ...WAVAX, value: '0', price: 20 };
    return { ...USDC, value: String(Math.floor(rnd() * 3_000_000)), price: 1, currency: rnd() < 0.1 ? 'eur' : 'usd' };
  };
  const random = (deliverer: string, rewardAddress: string, from: number, until: number, network: Network = 'mainnet') => {
    const deliveredAt = Math.floor((from + rnd() * (until - from)) / 1000) * 1000;
    const leg = network === 'mainnet' ? pick(legs) : legs[0]!;
    deliver(
      store,
      {
        deliverer,
        rewardAddress,
        sentAt: rnd() < 0.12 ? null : deliveredAt - Math.floor(1 + rnd() * 600) * 1000,
        deliveredAt,
        ...leg,
        gasSpent: rnd() < 0.05 ? (10n ** 27n + BigInt(Math.floor(rnd() * 1e9))).toString() : String(Math.floor(rnd() * 1e15)),
        reward: reward(),
      },
      network,
    );
  };
  for (let i = 0; i < 120; i++) random(upper(ALPHA), upper(ALPHA), NOW - DAY, NOW - 45 * MIN); // quiet for the last 45 min
  for (let i = 0; i < 60; i++) random(pick(UNWATCHED.slice(0, 2)), upper(BRAVO), NOW - DAY, NOW);
  for (let i = 0; i < 200; i++) {
    const u = pick(UNWATCHED.slice(0, 4));
    random(u, u, NOW - DAY, NOW);
  }
  for (let i = 0; i < 25; i++) random(upper(FUJI), upper(FUJI), NOW - DAY, NOW, 'fuji');
  // Zulu delivers on fuji, where it is not watched: its address counts as seen, so no look-back reads for it.
  for (let i = 0; i < 5; i++) random(ZULU, ZULU, NOW - 20 * HOUR, NOW, 'fuji');

  const at = (deliverer: string, deliveredAt: number, o: Partial<DeliverySpec> = {}, network: Network = 'mainnet') =>
    deliver(store, { deliverer, sentAt: deliveredAt - 30 * SEC, deliveredAt, ...o }, network);
  // Edge times: now, exactly one hour and one day ago (outside those windows), after now (not read).
  at(UNWATCHED[0]!, NOW);
  at(UNWATCHED[1]!, NOW - HOUR);
  at(UNWATCHED[4]!, NOW - DAY); // read, but outside the day: a row with no deliveries in 24 h
  at(UNWATCHED[2]!, NOW + MIN);
  at(UNWATCHED[5]!, NOW - DAY - SEC); // beyond the day, not watched: never read
  at(upper(ALPHA), NOW - 2 * HOUR, { rewardAddress: BRAVO, sentAt: null }); // the deliverer wins over the reward address
  // Quiet's history: its last delivery two days ago, an older one, one beyond the look-back.
  at(upper(QUIET), NOW - 2 * DAY, { destination: DEXALOT });
  at(QUIET, NOW - 3 * DAY);
  at(QUIET, NOW - 8 * DAY);
  // Read for quiet (its reward address) but counted for alpha (the deliverer), on the Beam → C route.
  at(ALPHA, NOW - 30 * HOUR, { rewardAddress: QUIET, source: BEAM, destination: C_CHAIN });
  at(ZULU, NOW - 3 * DAY); // not read: Zulu was seen (on fuji)
  at(UNWATCHED[3]!, NOW - 5 * DAY, { rewardAddress: GHOST }); // older than the day, reward to a watched relayer: read for ghost

  pendingAt(store, NOW - 40 * MIN);
  pendingAt(store, NOW - 5 * MIN);
  pendingAt(store, NOW - 300 * MIN, { tracked: false }); // nobody follows it: stale
  pendingAt(store, NOW - 20 * MIN, { destination: DEXALOT });
  pendingAt(store, NOW - 90 * MIN, { source: BEAM, destination: C_CHAIN });
  pendingAt(store, NOW - 12 * MIN, { network: 'fuji' });
  pendingAt(store, NOW - 12 * MIN, { source: DEXALOT, destination: BEAM }); // on no watched route
}

/** Route IDs are random: named by their labels for the fixed expectations. */
function named<T>(value: T, routes: readonly WatchedRoute[]): T {
  const name = new Map(routes.map((r, i) => [r.id, `route#${i}:${r.label}`]));
  return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'string' && name.has(v) ? name.get(v) : v))) as T;
}

/** One cycle's figures, as the relayer-alerts part computes them (the metrics count deliveries as they are read). */
function cycle(figures: RelayerFigures, now: number, metrics?: RelayerMetrics, baseline = false): RelayerSnapshot {
  const scope = figures.scope(now);
  const f = figures.figures(scope, metrics?.counting(scope, baseline));
  const s = { scope, overview: f.overview, conditions: evaluateConditions(scope, f) };
  metrics?.observe(s);
  return s;
}

describe('relayer figures over a realistic cache', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((c) => c()));

  function open(): Store {
    const tmp = tempDir('tw-figures-eq-');
    const store = openStore(tmp.dir);
    cleanups.push(tmp.cleanup, () => store.close());
    ids = 0;
    world(store);
    return store;
  }

  it('gives the same overview, conditions and click-through lists', () => {
    const store = open();
    const routes = store.relayerWatches.listRoutes();
    const figures = new RelayerFigures(store);
    const overview = figures.overview(NOW);
    expect(overview.relayers.length).toBeGreaterThan(8);
    expect(named(overview, routes)).toMatchSnapshot('overview');

    const s = cycle(figures, NOW);
    expect(s.overview).toEqual(overview);
    expect(s.conditions).toMatchSnapshot('conditions');

    const lists: Record<string, string[]> = {};
    const list = (name: string, t: { relayer?: string; routeId?: string; figure: RelayerFigure }) =>
      (lists[name] = figures.counted(NOW, t).map((m) => m.messageId));
    const kinds: RelayerFigure[] = ['deliveries1h', 'deliveries24h', 'latency'];
    for (const r of overview.relayers) for (const figure of kinds) list(`${r.address} ${figure}`, { relayer: upper(r.address), figure });
    routes.forEach((route, i) => {
      for (const figure of [...kinds, 'pending'] as const) list(`route#${i} ${figure}`, { routeId: route.id, figure });
      list(`route#${i} alpha`, { routeId: route.id, relayer: ALPHA, figure: 'deliveries24h' });
    });
    list('all pending', { figure: 'pending' });
    expect(lists).toMatchSnapshot('counted');
  });

  it('counts the same deliveries, latencies and rewards into the metrics', async () => {
    const store = open();
    const routes = store.relayerWatches.listRoutes();
    const figures = new RelayerFigures(store);
    const registry = new Registry();
    const metrics = new RelayerMetrics(registry, () => NOW);
    // At start, 6 h ago: what the cache held is only noted; then a cycle every 20 min counts the rest.
    cycle(figures, NOW - 6 * HOUR, metrics, true);
    for (let t = NOW - 6 * HOUR + 20 * MIN; t <= NOW; t += 20 * MIN) cycle(figures, t, metrics);
    expect(named(await registry.metrics(), routes)).toMatchSnapshot('metrics');
  });
});
