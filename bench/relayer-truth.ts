/**
 * The relayers benchmark's truth, from the simulator's own records (svc.onRecordChange): every delivery
 * on the watched routes in its last written state, and the figures they make per relayer and route,
 * computed here on their own (not with the core's code) so the core's figures are judged, not copied.
 */
import type { RecordChange, SimulatedService } from '../src/local-service';
import { HOUR_MS } from '../src/shared/time';

export interface TruthDelivery {
  messageId: string;
  deliverer: string;
  route: string;
  sentAt: number | null;
  deliveredAt: number;
  /** When the service first showed this delivery (clock ms): the indexer's lag after `deliveredAt`. */
  visibleAt: number;
  /** When the service first showed the message at all (clock ms; pending or delivered; absent: visibleAt). */
  shownAt?: number;
  reward: { token: string; value: bigint } | null;
  /** When the service first showed the message's receipt delivered (clock ms; absent: not yet). */
  receiptShownAt?: number;
}

export interface Figures {
  deliveries24h: number;
  deliveriesLastHour: number;
  latency: { p50: number; p95: number } | null;
  rewards: Record<string, string>;
}

/** Nearest rank, as a reader of the figures would take it. */
function nearestRank(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function figuresOf(ds: readonly TruthDelivery[], now: number): Figures {
  const day = ds.filter((d) => d.deliveredAt > now - 24 * HOUR_MS && d.deliveredAt <= now);
  const lat = day.flatMap((d) => (d.sentAt === null ? [] : [(d.deliveredAt - d.sentAt) / 1000])).sort((a, b) => a - b);
  const rewards: Record<string, bigint> = {};
  for (const d of day) if (d.reward) rewards[d.reward.token.toLowerCase()] = (rewards[d.reward.token.toLowerCase()] ?? 0n) + d.reward.value;
  return {
    deliveries24h: day.length,
    deliveriesLastHour: day.filter((d) => d.deliveredAt > now - HOUR_MS).length,
    latency: lat.length ? { p50: nearestRank(lat, 50), p95: nearestRank(lat, 95) } : null,
    rewards: Object.fromEntries(Object.entries(rewards).map(([k, v]) => [k, v.toString()])),
  };
}

export class RelayerTruth {
  /** Latest delivered state per message on a watched route. */
  private readonly delivered = new Map<string, TruthDelivery>();
  /** When each message on a watched route was first shown, in any state. */
  private readonly firstShown = new Map<string, number>();
  private readonly stopListening: () => void;

  /** `routes`: label by `source>destination` (cb58). */
  constructor(
    svc: SimulatedService,
    private readonly routes: ReadonlyMap<string, string>,
  ) {
    this.stopListening = svc.onRecordChange((changes: readonly RecordChange[]) => {
      for (const { record: r, visibleAt } of changes) this.take(r, visibleAt);
    });
  }

  private take(r: Record<string, unknown>, visibleAt: number): void {
    const label = this.routes.get(`${r.sourceBlockchainId as string}>${r.destinationBlockchainId as string}`);
    const dst = r.destinationTransaction as { timestamp: number; delivererAddress: string } | undefined;
    if (!label) return;
    const id = r.messageId as string;
    if (!this.firstShown.has(id)) this.firstShown.set(id, visibleAt);
    if (!dst) return;
    const src = r.sourceTransaction as { timestamp: number } | undefined;
    const reward = r.rewardDetails as { address: string; value: string } | undefined;
    const before = this.delivered.get(id);
    this.delivered.set(id, {
      messageId: id,
      deliverer: dst.delivererAddress,
      route: label,
      sentAt: src ? src.timestamp * 1000 : null,
      deliveredAt: dst.timestamp * 1000,
      visibleAt: before?.visibleAt ?? visibleAt,
      shownAt: this.firstShown.get(id) ?? visibleAt,
      reward: reward && /^\d+$/.test(reward.value) ? { token: reward.address, value: BigInt(reward.value) } : null,
      ...(before?.receiptShownAt !== undefined || r.receiptDelivered === true ? { receiptShownAt: before?.receiptShownAt ?? visibleAt } : {}),
    });
  }

  stop(): void {
    this.stopListening();
  }

  deliveries(): TruthDelivery[] {
    return [...this.delivered.values()];
  }
}
