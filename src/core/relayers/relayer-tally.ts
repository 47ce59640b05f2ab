/** One relayer row's figures, added one delivery at a time: counters and sums, never the deliveries. */
import type { RelayerRow, WatchedRelayer } from '../../shared/relayers';
import type { Network } from '../../shared/validators';
import type { Attributed } from './attribution';
import { LatencyHistogram } from './latency-histogram';
import { GasSums, RewardSums } from './token-sums';
import { HOUR_MS } from '../../shared/time';
import { BUCKET_MS, inWindow, WINDOW_MS } from './windows';

export class RelayerTally {
  /** Destination time of its newest delivery read (any age: the look-back rows too). */
  lastDeliveryAt: number | null = null;
  /** The watched routes it delivered on, in any delivery read: the routes it can fall silent on. */
  readonly routesEver = new Set<string>();
  private readonly rewardAddresses = new Set<string>();
  private lastHour = 0;
  private day = 0;
  /** Deliveries in the window by route, in the order the routes first appeared. */
  private readonly perRoute = new Map<string, number>();
  private readonly buckets = new Array<number>(WINDOW_MS / BUCKET_MS).fill(0);
  private readonly latency = new LatencyHistogram();
  private readonly gas = new GasSums();
  private readonly rewards = new RewardSums();

  constructor(
    readonly address: string,
    readonly network: Network,
    private readonly now: number,
  ) {}

  add(a: Attributed): void {
    const d = a.delivery;
    if (this.lastDeliveryAt === null || d.deliveredAt > this.lastDeliveryAt) this.lastDeliveryAt = d.deliveredAt;
    for (const id of a.routeIds) this.routesEver.add(id);
    this.rewardAddresses.add(d.rewardAddress);
    if (inWindow(this.now, HOUR_MS, d.deliveredAt)) this.lastHour++;
    if (!inWindow(this.now, WINDOW_MS, d.deliveredAt)) return;
    this.day++;
    for (const id of a.routeIds) this.perRoute.set(id, (this.perRoute.get(id) ?? 0) + 1);
    const i = this.buckets.length - 1 - Math.floor((this.now - d.deliveredAt) / BUCKET_MS);
    if (i >= 0) this.buckets[i] = (this.buckets[i] ?? 0) + 1;
    if (d.sentAt !== null) this.latency.add((d.deliveredAt - d.sentAt) / 1000);
    this.gas.add(d);
    this.rewards.add(d);
  }

  /** Its row; `routeTotals`: every relayer's deliveries in the window by route (its shares' denominators). */
  row(w: WatchedRelayer | undefined, routeTotals: ReadonlyMap<string, number>): RelayerRow {
    return {
      address: this.address,
      network: this.network,
      watched: w !== undefined,
      label: w?.label ?? '',
      rewardAddresses: [...this.rewardAddresses].sort(),
      deliveriesLastHour: this.lastHour,
      deliveries24h: this.day,
      routes: [...this.perRoute].map(([routeId, n]) => ({ routeId, deliveries: n, share: n / (routeTotals.get(routeId) ?? n) })),
      latency: this.latency.figures(),
      gas: this.gas.sums(),
      rewards: this.rewards.sums(),
      lastDeliveryAt: this.lastDeliveryAt,
      buckets: [...this.buckets],
    };
  }
}
