/**
 * Deterministic traffic over the registry's chains: a discrete-event simulation with its own
 * simulated time. `step(ms)` moves it by hand; `attach()` ties it to a Clock so it follows real time
 * (system clock) or moves only when a ManualClock is advanced. This class runs the event loop; the
 * world it runs comes from seeded-world.ts, records go out through record-writer.ts, the relayers'
 * receipts through receipt-relay.ts, and clock-follower.ts keeps it in step with a clock.
 */
import type { Clock } from '../shared/clock';
import type { Rng } from '../shared/rng';
import { followClock, type ClockFollow } from './clock-follower';
import { drawMessage, MAX_DELIVERY_MS, type DrawContext, type SendOptions } from './draw-message';
import { EventQueue } from './event-queue';
import type { IndexerStalls, StallSpan } from './indexer-stalls';
import type { MessagePlan } from './message-plan';
import { MAX_RECEIPT_MS, ReceiptRelay } from './receipt-relay';
import { RecordWriter } from './record-writer';
import { QUIET_MEAN_GAP_MS, type RoutePlan } from './route-plan';
import { failsAtDelivery, onDemoRoute } from './demo-day-draws';
import { withShows } from './demo-shows';
import { seedWorld } from './seeded-world';
import type { EventBody, SimEvent, SimulatorOptions } from './sim-types';
import type { RelayerWallets } from './wallets';
import type { DemoRelayer, RelayerPersonas } from './relayer-personas';

export type { SendOptions } from './draw-message';
export type { SimChange } from './sim-types';

export class TrafficSimulator {
  /** The simulator's user addresses (EIP-55), hottest first. */
  readonly addresses: string[];
  /** The few addresses that carry a large share of the traffic. */
  readonly hotAddresses: string[];
  readonly relayers: string[];
  /** The relayers' personas (null: none, six alike). */
  readonly personas: RelayerPersonas | null;
  readonly seed: number;
  /** With sparseRoutes: the busy, quiet and one-way routes (null: every route, both ways, by chain weight). */
  readonly routes: RoutePlan | null;
  /** The relayers' gas wallets: every delivery is paid from one (the truth tests read). */
  readonly wallets: RelayerWallets;
  private readonly rng: Rng;
  private readonly draw: DrawContext;
  private readonly stallSchedule: IndexerStalls | null;
  private readonly queue = new EventQueue<SimEvent>();
  private readonly writer: RecordWriter;
  private readonly relay: ReceiptRelay;
  private readonly tickMs: number;
  private seq = 0;
  /** New messages a second (setRate changes it). */
  private rate: number;
  private simNow: number;
  private sent = 0;
  private follow: ClockFollow | null = null;
  private clock: Clock | null = null;

  constructor(private readonly opts: SimulatorOptions) {
    this.seed = opts.seed;
    this.simNow = opts.startMs;
    this.rate = opts.rate;
    this.tickMs = opts.tickMs ?? 1000;
    const w = seedWorld(opts);
    ({ addresses: this.addresses, hotAddresses: this.hotAddresses, relayers: this.relayers, personas: this.personas, routes: this.routes } = w);
    ({ wallets: this.wallets, rng: this.rng, draw: this.draw, stalls: this.stallSchedule } = w);
    const push = (ev: EventBody) => this.push(ev);
    this.writer = new RecordWriter({ sink: opts.sink, lag: w.world.lag, lags: w.lags, stalls: w.stalls, now: () => this.simNow, push });
    this.relay = new ReceiptRelay({ draw: this.draw, speed: opts.speed, resends: w.world.receiptResends, push, send: (plan) => this.onSent(plan) });
    this.scheduleArrivals();
  }

  /** The relayers with their behaviour and routes, as /_local/info names them (empty without personas). */
  demoRelayers(): DemoRelayer[] {
    return withShows(this.personas?.describe() ?? [], this.wallets.dry, this.draw.demoDay !== undefined);
  }

  /** Simulated time, epoch ms. */
  now(): number {
    return this.simNow;
  }

  /** The indexer stalls that started by `until` (default: now); empty without `stalls`. */
  stalls(until = this.simNow): StallSpan[] {
    return this.stallSchedule?.until(until) ?? [];
  }

  get messagesSent(): number {
    return this.sent;
  }

  /** Events waiting (arrivals, deliveries, relayers' receipt checks, changes waiting out their indexing lag). */
  get pendingEvents(): number {
    return this.queue.size;
  }

  /** Advances simulated time by `ms`, writing every record change to the sink; returns events handled. */
  step(ms: number): number {
    const target = this.simNow + Math.max(0, ms);
    let handled = 0;
    // A held preload record is safe to write once older than any message still in flight.
    const settledBefore = () => Math.floor(this.simNow / 1000) - (MAX_DELIVERY_MS + MAX_RECEIPT_MS) / 1000 / this.opts.speed;
    for (let ev = this.queue.peek(); ev && ev.at <= target; ev = this.queue.peek()) {
      this.queue.pop();
      this.simNow = Math.max(this.simNow, ev.at);
      this.handle(ev);
      handled++;
      this.writer.afterEvent(settledBefore);
    }
    this.simNow = target;
    this.writer.flush();
    this.follow?.reschedule();
    return handled;
  }

  /**
   * Sends one message now and returns its ID; its delivery follows on later steps. When attached to a
   * clock, "now" is the clock's time (the simulator first catches up with it).
   */
  send(options: SendOptions = {}): string {
    const behind = this.clock ? this.clock.now() - this.simNow : 0;
    if (behind > 0) this.step(behind);
    const plan = drawMessage(this.draw, this.simNow, options);
    this.onSent(plan);
    this.writer.flush();
    this.follow?.reschedule();
    return plan.messageId;
  }

  /**
   * Writes `count` historical messages spread over the time before now, in their current states
   * (most delivered with receipts, recent ones still in flight, a few never delivered). Only final states are
   * written, in large batches: this is the fast path for big stores.
   */
  preload(count: number, ratePerSecond = this.rate > 0 ? this.rate : 2): void {
    if (count <= 0) return;
    const end = this.simNow;
    const gap = 1000 / ratePerSecond;
    this.simNow = end - count * gap;
    this.writer.beginBulk();
    const bulk = { start: this.simNow, gap, index: 0, count };
    this.push({ at: this.simNow + this.rng.next() * gap, kind: 'arrival', bulk });
    try {
      this.step(end - this.simNow);
    } finally {
      this.writer.endBulk();
    }
  }

  /**
   * New messages a second from now on (a busy hour, then calm): the next arrival already drawn stands,
   * the ones after it are drawn at this rate. Traffic on (rate > 0) stays on: no second chain of arrivals.
   */
  setRate(perSecond: number): void {
    if (!(perSecond > 0) || !(this.rate > 0)) throw new Error('setRate changes a running traffic rate (both rates above 0).');
    this.rate = perSecond;
  }

  /** Follows `clock`: catches up with it whenever an event is due (at most every tickMs). */
  attach(clock: Clock): void {
    this.detachClock();
    this.clock = clock;
    const sim = { now: () => this.simNow, nextAt: () => this.queue.peek()?.at, step: (ms: number) => void this.step(ms) };
    followClock(clock, this.tickMs, sim, (follow) => (this.follow = follow));
  }

  detachClock(): void {
    this.follow?.detach();
    this.follow = null;
    this.clock = null;
  }

  private scheduleArrivals(): void {
    const day = this.draw.demoDay;
    if (day) this.push({ at: day.originMs + day.day.stuck.firstMs, kind: 'stuck' });
    if (this.rate <= 0) return;
    this.push({ at: this.simNow + this.rng.exp(1000 / this.rate), kind: 'arrival' });
    for (const route of this.routes?.quiet ?? []) this.push({ at: this.simNow + this.rng.exp(QUIET_MEAN_GAP_MS), kind: 'quiet', route });
  }

  private push(ev: EventBody): void {
    this.queue.push({ ...ev, seq: this.seq++ });
  }

  private handle(ev: SimEvent): void {
    switch (ev.kind) {
      case 'arrival': {
        this.onSent(drawMessage(this.draw, ev.at, {}));
        const b = ev.bulk;
        if (b) {
          // Historical arrivals: one per slot of `gap`, at a random point in the slot, all before now.
          const index = b.index + 1;
          if (index < b.count) this.push({ at: b.start + (index + this.rng.next()) * b.gap, kind: 'arrival', bulk: { ...b, index } });
        } else {
          this.push({ at: ev.at + this.rng.exp(1000 / this.rate), kind: 'arrival' });
        }
        return;
      }
      case 'visible':
        this.writer.visible(ev);
        return;
      case 'quiet':
        this.onSent(drawMessage(this.draw, ev.at, { source: ev.route.source.blockchainId, destination: ev.route.destination.blockchainId }));
        this.push({ at: ev.at + this.rng.exp(QUIET_MEAN_GAP_MS), kind: 'quiet', route: ev.route });
        return;
      case 'relay':
        this.relay.check(ev.at);
        return;
      case 'retry':
        // retryMessageExecution succeeded: the same record, executed, on the destination chain.
        ev.plan.executed = true;
        this.writer.write(ev.plan, ev.plan.receipted ? 'receipted' : 'delivered', ev.plan.receipted);
        return;
      case 'stuck':
        this.sendStuck(ev.at);
        return;
      case 'deliver':
        this.deliver(ev.plan, ev.at);
    }
  }

  /** Delivered: paid from the deliverer's wallet; the receipts it carries are processed in the same transaction (one store change). */
  private deliver(plan: MessagePlan, at: number): void {
    // A dry wallet's delivery waits for the next refill.
    const paid = this.wallets.pay(plan.destTx.delivererAddress, plan.destination.blockchainId, BigInt(plan.destTx.gasSpent), at);
    if (!paid.paid) {
      plan.deliverAt = paid.retryAt + 1;
      plan.destTx.timestamp = Math.floor(plan.deliverAt / 1000);
      this.push({ at: plan.deliverAt, kind: 'deliver', plan });
      return;
    }
    const day = this.draw.demoDay;
    if (day && failsAtDelivery(day, plan, at)) plan.executed = false;
    this.writer.write(plan, 'delivered');
    for (const o of this.relay.settledBy(plan)) this.writer.write(o, 'receipted', true);
    this.relay.delivered(plan, at);
    // On the demo day, whoever runs a demo route's dApp retries each failed execution.
    if (day && !plan.executed && at >= day.originMs && onDemoRoute(day, plan)) this.push({ at: at + day.day.failures.retryAfterMs, kind: 'retry', plan });
  }

  /** The demo day's stuck message: from the busiest address, delivered only after the stuck threshold; the next one scheduled. */
  private sendStuck(at: number): void {
    const day = this.draw.demoDay!;
    const { source, destination } = day.stuckRoute;
    const plan = drawMessage(this.draw, at, {
      source,
      destination,
      from: this.hotAddresses[0]!,
      outcome: 'normal',
      executed: true,
      deliveryDelayMs: day.day.stuck.waitMs,
    });
    this.onSent(plan);
    this.push({ at: at + day.day.stuck.everyMs, kind: 'stuck' });
  }

  private onSent(plan: MessagePlan): void {
    this.sent++;
    // An ordinary message takes the receipts queued on its route (a re-send names its own).
    if (!plan.carries.length) plan.carries = this.relay.carriedBy(plan);
    // A message whose source transaction is never indexed is invisible until it is delivered.
    if (plan.outcome !== 'sourceNotIndexed') this.writer.write(plan, 'sent', plan.outcome === 'undelivered');
    if (plan.outcome !== 'undelivered') this.push({ at: plan.deliverAt, kind: 'deliver', plan });
  }
}
