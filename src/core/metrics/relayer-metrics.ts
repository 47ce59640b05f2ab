/**
 * Prometheus series of the watched relayers and routes, on the core's registry. Labels are the watched
 * relayers' and routes' labels only (an unwatched deliverer counts as "unwatched"), capped like the
 * core's other labels. Counters follow each poll cycle's figures; gauges read the last cycle's figures.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { routeLabel, type OwnChain } from '../../shared/chains';
import type { RelayerOverview, WatchedRelayer, WatchedRoute } from '../../shared/relayers';
import { silentKey, backlogKey, type Conditions } from '../relayers/conditions';
import type { DeliveryTap, FigureScope } from '../relayers/figure-accumulator';
import { METRIC_PREFIX } from './core-metrics';
import { LabelCap } from './label-cap';
import { HOUR_MS } from '../../shared/time';

/** One poll cycle's relayer figures, as the relayer-alerts part computed them. */
export interface RelayerSnapshot {
  scope: FigureScope;
  overview: RelayerOverview;
  conditions: Conditions;
}

/** A delivery found later than this after its destination time is not counted (it is still in the figures). */
const LATE_COUNT_MS = HOUR_MS;
const MAX_RELAYERS = 200;
const MAX_ROUTES = 100;
const MAX_TOKENS = 50;
export const UNWATCHED = 'unwatched';

export const relayerName = (r: WatchedRelayer) => r.label || r.address;
/** A route's label, else its chains by name (`own`: your own nodes' chains while they are the data source). */
export const routeName = (r: WatchedRoute, own: readonly OwnChain[] = []) => r.label || routeLabel(r.sourceChain, r.destinationChain, own);

export class RelayerMetrics {
  private readonly relayers = new LabelCap(MAX_RELAYERS);
  private readonly routeNames = new LabelCap(MAX_ROUTES);
  private readonly tokens = new LabelCap(MAX_TOKENS);
  private readonly deliveries: Counter<'relayer' | 'route'>;
  private readonly latency: Histogram<'relayer' | 'route'>;
  private readonly rewards: Counter<'relayer' | 'token'>;
  /** Deliveries already counted, by message ID with their destination time (only the last LATE_COUNT_MS). */
  private readonly counted = new Map<string, number>();
  private last: RelayerSnapshot | null = null;

  /** `ownChains`: your own nodes' chains while they are the data source (a route's label names them so). */
  constructor(
    registry: Registry,
    now: () => number,
    private readonly ownChains: () => readonly OwnChain[] = () => [],
  ) {
    const registers = [registry];
    // Read at scrape time by the gauges' collect (where `this` is the gauge).
    const last = () => this.last;
    const relayers = this.relayers;
    const route = (r: WatchedRoute, own: readonly OwnChain[]) => this.routeNames.of(routeName(r, own));
    this.deliveries = new Counter({
      name: `${METRIC_PREFIX}relayer_deliveries_total`,
      help: 'Deliveries on watched routes, by watched relayer ("unwatched": any other deliverer) and route.',
      labelNames: ['relayer', 'route'],
      registers,
    });
    this.latency = new Histogram({
      name: `${METRIC_PREFIX}relayer_delivery_latency_seconds`,
      help: 'Seconds from source to destination transaction of deliveries on watched routes, by relayer and route.',
      labelNames: ['relayer', 'route'],
      buckets: [5, 15, 30, 60, 120, 300, 600, 1800, 3600],
      registers,
    });
    this.rewards = new Counter({
      name: `${METRIC_PREFIX}relayer_rewards_total`,
      help: 'Relayer rewards of deliveries on watched routes, in whole tokens, by watched relayer and token symbol.',
      labelNames: ['relayer', 'token'],
      registers,
    });
    new Gauge({
      name: `${METRIC_PREFIX}relayer_last_delivery_timestamp_seconds`,
      help: 'Unix time of the newest delivery of each watched relayer (absent until one is seen, up to 7 days back).',
      labelNames: ['relayer'],
      registers,
      collect() {
        this.reset();
        const s = last();
        if (!s) return;
        for (const r of s.scope.relayers) {
          // Its address's rows on any network (a row's last delivery is its newest, any age).
          const times = s.overview.relayers.filter((row) => row.address.toLowerCase() === r.address.toLowerCase()).map((row) => row.lastDeliveryAt);
          const mine = times.filter((t): t is number => t !== null);
          if (!mine.length) continue;
          this.set({ relayer: relayers.of(relayerName(r)) }, Math.max(...mine) / 1000);
        }
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}route_pending_messages`,
      help: 'Messages pending on each watched route.',
      labelNames: ['route'],
      registers,
      collect() {
        this.reset();
        const own = ownChains();
        for (const r of last()?.overview.routes ?? []) this.set({ route: route(r.route, own) }, r.pending);
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}route_oldest_pending_age_seconds`,
      help: 'Age of the oldest message pending on each watched route, from its source transaction (0: none pending).',
      labelNames: ['route'],
      registers,
      collect() {
        this.reset();
        const t = now();
        const own = ownChains();
        for (const r of last()?.overview.routes ?? []) {
          this.set({ route: route(r.route, own) }, r.oldestPendingSince === null ? 0 : Math.max(0, (t - r.oldestPendingSince) / 1000));
        }
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}relayer_silent`,
      help: "1 while a watched relayer's relayer-silent condition holds (its own thresholds), else 0; absent when its alert is off.",
      labelNames: ['relayer'],
      registers,
      collect() {
        this.reset();
        const s = last();
        for (const r of s?.scope.relayers ?? []) {
          const key = silentKey(r.network, r.address);
          if (s?.conditions.watched.has(key)) this.set({ relayer: relayers.of(relayerName(r)) }, s.conditions.holding.has(key) ? 1 : 0);
        }
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}route_backlogged`,
      help: "1 while a watched route's route-backlog condition holds (its own threshold), else 0; absent when its alert is off.",
      labelNames: ['route'],
      registers,
      collect() {
        this.reset();
        const s = last();
        const own = ownChains();
        for (const r of s?.scope.routes ?? []) {
          const key = backlogKey(r);
          if (s?.conditions.watched.has(key)) this.set({ route: route(r, own) }, s.conditions.holding.has(key) ? 1 : 0);
        }
      },
    });
  }

  /**
   * Counts a cycle's deliveries as the figures read them: those not counted yet go into the counters
   * and the histogram. With `baseline` (the core's start) they are only noted: what earlier runs saw is
   * not counted again. Returns what sees each delivery; `observe` then takes the cycle's figures.
   */
  counting(scope: FigureScope, baseline = false): DeliveryTap {
    const floor = scope.now - LATE_COUNT_MS;
    for (const [id, at] of this.counted) if (at < floor) this.counted.delete(id);
    const watched = new Map(scope.relayers.map((r) => [r.address.toLowerCase(), r]));
    const routes = new Map(scope.routes.map((r) => [r.id, r]));
    const own = this.ownChains();
    return (a) => {
      const d = a.delivery;
      if (d.deliveredAt < floor || this.counted.has(d.messageId)) return;
      this.counted.set(d.messageId, d.deliveredAt);
      if (baseline) return;
      const w = watched.get(a.relayer.toLowerCase());
      const relayer = w ? this.relayers.of(relayerName(w)) : UNWATCHED;
      for (const id of a.routeIds) {
        const route = this.routeNames.of(routeName(routes.get(id) as WatchedRoute, own));
        this.deliveries.inc({ relayer, route });
        if (d.sentAt !== null) this.latency.observe({ relayer, route }, Math.max(0, (d.deliveredAt - d.sentAt) / 1000));
      }
      if (w && d.reward) this.rewards.inc({ relayer, token: this.tokens.of(d.reward.symbol || d.reward.token) }, toWhole(d.reward.value, d.reward.decimals));
    };
  }

  /** Takes a cycle's figures: the gauges read the last ones at scrape time. */
  observe(s: RelayerSnapshot): void {
    this.last = s;
  }
}

/** Smallest units to whole tokens (a float: Prometheus values are). */
const toWhole = (value: bigint, decimals: number) => Number(value) / 10 ** decimals;
