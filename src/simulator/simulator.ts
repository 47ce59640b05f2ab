/**
 * Deterministic traffic over the registry's chains: a discrete-event simulation with its own
 * simulated time. `step(ms)` moves it by hand; `attach()` ties it to a Clock so it follows real time
 * (system clock) or moves only when a ManualClock is advanced.
 */
import { toChecksumAddress } from '../shared/validators';
import type { Clock } from '../shared/clock';
import { Rng } from '../local-data-api/rng';
import { drawMessage, MAX_DELIVERY_MS, type DrawContext, type SendOptions } from './draw-message';
import { EventQueue } from './event-queue';
import { BlockLags, VisibilityOrder } from './index-lag';
import { IndexerStalls, type StallSpan } from './indexer-stalls';
import { recordOf, type MessagePlan, type Stage } from './message-plan';
import { ReceiptRoutes } from './receipt-routes';
import { planRoutes, QUIET_MEAN_GAP_MS, type RoutePlan } from './route-plan';
import { MESSENGERS } from './catalog';
import type { EventBody, SimEvent, SimulatorOptions, SimWorld } from './sim-types';
import { RelayerWallets, type DryWallet } from './wallets';
import { demoSchedule, RelayerPersonas, type DemoRelayer } from './relayer-personas';

export type { SendOptions } from './draw-message';
export type { SimChange } from './sim-types';

/**
 * The relayers look for receipts still missing this long after delivery (an undelivered carrier holds them, or
 * little traffic goes back) every RELAY_CHECK_MS, and send them back with `sendSpecifiedReceipts`.
 */
const RECEIPT_RESEND_MS = 3 * 60_000;
const RELAY_CHECK_MS = 30_000;
/** How long a finished record may have to wait for its receipt at most (resend wait, check, delivery). */
const MAX_RECEIPT_MS = RECEIPT_RESEND_MS + RELAY_CHECK_MS + MAX_DELIVERY_MS;
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
const NONCE_EPOCH_MS = Date.UTC(2024, 0, 1);

/** Sort time of a record (seconds): source timestamp, else destination timestamp. */
const sortTime = (p: MessagePlan): number => (p.outcome === 'sourceNotIndexed' ? p.destTx.timestamp : p.sourceTx.timestamp);

function mix32(a: number, b: number): number {
  let h = (a ^ 0x9e3779b9) >>> 0;
  h = Math.imul(h ^ (b >>> 0), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ Math.floor(b / 4294967296), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

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
  private readonly addressWeights: (readonly [string, number])[];
  private readonly rng: Rng;
  private readonly queue = new EventQueue<SimEvent>();
  private readonly nonces = new Map<string, number>();
  private readonly receipts = new ReceiptRoutes();
  private relayScheduled = false;
  private readonly draw: DrawContext;
  private seq = 0;
  private simNow: number;
  private sent = 0;
  private bulk: Map<string, { plan: MessagePlan; stage: Stage }> | null = null;
  /** Finished messages of a preload, held back until older than any message still in flight. */
  private held: { ts: number; record: Record<string, unknown> }[] = [];
  private holdLimit = 20_000;
  private pendingWrites: { record: Record<string, unknown>; happenedAt: number }[] = [];
  private readonly world: SimWorld;
  /** Its own random stream, so turning lag on leaves the traffic itself unchanged. */
  private readonly lags: BlockLags;
  private readonly visibility = new VisibilityOrder();
  private readonly stallSchedule: IndexerStalls | null;
  private detach: (() => void) | null = null;
  private readonly tickMs: number;
  /** The relayers' gas wallets: every delivery is paid from one (the truth tests read). */
  readonly wallets: RelayerWallets;

  constructor(private readonly opts: SimulatorOptions) {
    this.seed = opts.seed;
    this.simNow = opts.startMs;
    this.tickMs = opts.tickMs ?? 1000;
    // The address set depends on the seed only, so watchlists stay valid across restarts.
    const people = new Rng(opts.seed);
    this.addresses = Array.from({ length: opts.addressCount ?? 200 }, () => toChecksumAddress('0x' + people.hex(20)));
    const schedule = opts.world?.relayers === undefined ? demoSchedule() : opts.world.relayers;
    // Six as always (more for a bigger schedule, drawn after them): the first six stay the same addresses.
    const relayerCount = Math.max(6, schedule ? schedule.relayers.filter((p) => !p.address).length : 0);
    this.relayers = Array.from({ length: relayerCount }, () => toChecksumAddress('0x' + people.hex(20)));
    this.addressWeights = this.addresses.map((a, i) => [a, 1 / (i + 1)] as const);
    this.hotAddresses = this.addresses.slice(0, 5);
    // Traffic depends on seed and start time: a restart on the same database makes new message IDs.
    this.rng = new Rng(mix32(opts.seed, Math.floor(opts.startMs / 1000)));
    this.world = {
      lag: false,
      receiptResends: true,
      sparseRoutes: false,
      messengerVersions: 1,
      dryWallet: false,
      stalls: false,
      ...opts.world,
      relayers: schedule,
    };
    this.personas = schedule
      ? new RelayerPersonas(schedule, this.relayers, new Rng(mix32(opts.seed ^ 0x7e1a7e, Math.floor(opts.startMs / 1000))), opts.startMs)
      : null;
    this.routes = this.world.sparseRoutes ? planRoutes(opts.seed) : null;
    this.wallets = new RelayerWallets(new Set(this.relayers.map((r) => r.toLowerCase())), this.world.dryWallet ? this.dryWallet() : null);
    this.lags = new BlockLags(new Rng(mix32(opts.seed ^ 0x1a6, Math.floor(opts.startMs / 1000))));
    // Its own stream too: stalls on or off leave the traffic and the ordinary lags as they were.
    this.stallSchedule = this.world.stalls ? new IndexerStalls(new Rng(mix32(opts.seed ^ 0x57a11, Math.floor(opts.startMs / 1000))), opts.startMs) : null;
    this.draw = {
      rng: this.rng,
      speed: opts.speed,
      nonces: this.nonces,
      nonceBase: new Map(),
      // Computed IDs repeat with their nonces: a later start continues above an earlier run's (four per second per chain).
      nonceFloor: this.world.messengerVersions === 2 ? Math.max(0, Math.floor((opts.startMs - NONCE_EPOCH_MS) / 250)) : 0,
      messengerVersions: this.world.messengerVersions,
      addressWeights: this.addressWeights,
      relayers: this.relayers.slice(0, 6),
      ...(this.personas ? { personas: this.personas } : {}),
      ...(this.routes ? { busyRoutes: this.routes.busy } : {}),
    };
    this.scheduleArrivals();
  }

  /** The relayers with their behaviour and routes, as /_local/info names them (empty without personas). */
  demoRelayers(): DemoRelayer[] {
    return this.personas?.describe() ?? [];
  }

  /** The wallet that runs dry: the first relayer with routes, on its last route's destination (Swift on the C-Chain in the demo: no takeover there). */
  private dryWallet(): DryWallet | null {
    const r = this.personas?.describe().find((d) => d.routes.length > 0);
    const route = r?.routes[r.routes.length - 1];
    return r && route ? { relayer: r.address.toLowerCase(), blockchainId: route.destination } : null;
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
    for (let ev = this.queue.peek(); ev && ev.at <= target; ev = this.queue.peek()) {
      this.queue.pop();
      this.simNow = Math.max(this.simNow, ev.at);
      this.handle(ev);
      handled++;
      if (this.pendingWrites.length >= 5000) this.flush();
      if (this.held.length >= this.holdLimit) this.releaseHeld(Math.floor(this.simNow / 1000) - (MAX_DELIVERY_MS + MAX_RECEIPT_MS) / 1000 / this.opts.speed);
    }
    this.simNow = target;
    this.flush();
    this.reschedule();
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
    this.flush();
    this.reschedule();
    return plan.messageId;
  }

  /**
   * Writes `count` historical messages spread over the time before now, in their current states
   * (most delivered with receipts, recent ones still in flight, a few never delivered). Only final states are
   * written, in large batches: this is the fast path for big stores.
   */
  preload(count: number, ratePerSecond = this.opts.rate > 0 ? this.opts.rate : 2): void {
    if (count <= 0) return;
    const end = this.simNow;
    const gap = 1000 / ratePerSecond;
    this.simNow = end - count * gap;
    this.bulk = new Map();
    const bulk = { start: this.simNow, gap, index: 0, count };
    this.push({ at: this.simNow + this.rng.next() * gap, kind: 'arrival', bulk });
    try {
      this.step(end - this.simNow);
    } finally {
      for (const { plan, stage } of this.bulk.values()) this.held.push({ ts: sortTime(plan), record: recordOf(plan, stage) });
      this.bulk = null;
      this.releaseHeld(Infinity);
    }
  }

  /**
   * Writes held preload records older than `cutoff` (seconds) in time order. Appending in order keeps
   * the store's pages full (out-of-order inserts split pages); the order does not affect correctness.
   */
  private releaseHeld(cutoff: number): void {
    this.held.sort((a, b) => a.ts - b.ts);
    let n = 0;
    while (n < this.held.length && this.held[n]!.ts < cutoff) n++;
    for (const h of this.held.slice(0, n)) this.pendingWrites.push({ record: h.record, happenedAt: this.simNow });
    this.held = this.held.slice(n);
    this.holdLimit = Math.max(20_000, this.held.length * 2); // sort again only after the pile has doubled
    this.flush();
  }

  /** Follows `clock`: catches up with it whenever an event is due (at most every tickMs). */
  attach(clock: Clock): void {
    this.detachClock();
    this.clock = clock;
    let cancel: (() => void) | null = null;
    let lastTick = clock.now();
    const tick = () => {
      cancel = null;
      lastTick = clock.now();
      const behind = lastTick - this.simNow;
      if (behind > 0) this.step(behind);
      else schedule();
    };
    const schedule = () => {
      cancel?.();
      cancel = null;
      const next = this.queue.peek();
      if (!next) return;
      const due = Math.max(next.at, lastTick + this.tickMs, this.simNow);
      cancel = clock.setTimer(tick, Math.max(0, due - clock.now()));
    };
    this.rescheduleHook = schedule;
    this.detach = () => {
      cancel?.();
      this.rescheduleHook = null;
      this.clock = null;
    };
    const behind = clock.now() - this.simNow;
    if (behind > 0) this.step(behind);
    else schedule();
  }

  detachClock(): void {
    this.detach?.();
    this.detach = null;
  }

  private rescheduleHook: (() => void) | null = null;
  private clock: Clock | null = null;

  private reschedule(): void {
    this.rescheduleHook?.();
  }

  private scheduleArrivals(): void {
    if (this.opts.rate <= 0) return;
    this.push({ at: this.simNow + this.rng.exp(1000 / this.opts.rate), kind: 'arrival' });
    for (const route of this.routes?.quiet ?? []) this.push({ at: this.simNow + this.rng.exp(QUIET_MEAN_GAP_MS), kind: 'quiet', route });
  }

  private push(ev: EventBody): void {
    this.queue.push({ ...ev, seq: this.seq++ });
  }

  private handle(ev: SimEvent): void {
    if (ev.kind === 'arrival') {
      this.onSent(drawMessage(this.draw, ev.at, {}));
      const b = ev.bulk;
      if (b) {
        // Historical arrivals: one per slot of `gap`, at a random point in the slot, all before now.
        const index = b.index + 1;
        if (index < b.count) this.push({ at: b.start + (index + this.rng.next()) * b.gap, kind: 'arrival', bulk: { ...b, index } });
      } else {
        this.push({ at: ev.at + this.rng.exp(1000 / this.opts.rate), kind: 'arrival' });
      }
      return;
    }
    if (ev.kind === 'visible') {
      this.visibility.released(ev.id);
      this.pendingWrites.push({ record: ev.record, happenedAt: ev.happenedAt });
      return;
    }
    if (ev.kind === 'quiet') {
      this.onSent(drawMessage(this.draw, ev.at, { source: ev.route.source.blockchainId, destination: ev.route.destination.blockchainId }));
      this.push({ at: ev.at + this.rng.exp(QUIET_MEAN_GAP_MS), kind: 'quiet', route: ev.route });
      return;
    }
    if (ev.kind === 'relay') {
      this.relayScheduled = false;
      this.resendOverdue(ev.at);
      return;
    }
    // Delivered: the receipts it carries are processed in the same transaction (one store change).
    const plan = ev.plan;
    // Paid from the deliverer's wallet on the destination; a dry wallet's delivery waits for the next refill.
    const paid = this.wallets.pay(plan.destTx.delivererAddress, plan.destination.blockchainId, BigInt(plan.destTx.gasSpent), ev.at);
    if (!paid.paid) {
      plan.deliverAt = paid.retryAt + 1;
      plan.destTx.timestamp = Math.floor(plan.deliverAt / 1000);
      this.push({ at: plan.deliverAt, kind: 'deliver', plan });
      return;
    }
    this.write(plan, 'delivered');
    for (const o of this.receipts.settle(plan)) this.write(o, 'receipted', true);
    if (plan.receiptDelayMs !== undefined) this.sendReceipts(ev.at, plan.destination.blockchainId, plan.source.blockchainId, [plan], plan.receiptDelayMs);
    else {
      this.receipts.queue(plan, ev.at, this.world.receiptResends && plan.to !== ZERO_ADDRESS);
      this.scheduleRelay(ev.at);
    }
  }

  /** A relayer's `sendSpecifiedReceipts`: a message with no payload to the zero address, carrying the receipts named. */
  private sendReceipts(at: number, source: string, destination: string, originals: MessagePlan[], deliveryDelayMs?: number): void {
    const from = originals[0]!.destTx.rewardRedeemer;
    const plan = drawMessage(this.draw, at, {
      source,
      destination,
      // The messenger that sent the originals sends their receipts back.
      messengerVersion: originals[0]!.messenger === MESSENGERS[1] ? 2 : 1,
      from,
      to: ZERO_ADDRESS,
      outcome: 'normal',
      ...(deliveryDelayMs !== undefined ? { deliveryDelayMs } : {}),
    });
    plan.data = '0x';
    plan.carries = originals;
    this.onSent(plan);
  }

  private resendOverdue(at: number): void {
    for (const r of this.receipts.overdue(at, RECEIPT_RESEND_MS / this.opts.speed)) this.sendReceipts(at, r.source, r.destination, r.originals);

    this.scheduleRelay(at);
  }

  private scheduleRelay(at: number): void {
    if (this.relayScheduled || this.receipts.waitingCount === 0) return;
    this.relayScheduled = true;
    this.push({ at: at + RELAY_CHECK_MS / this.opts.speed, kind: 'relay' });
  }

  private onSent(plan: MessagePlan): void {
    this.sent++;
    // An ordinary message takes the receipts queued on its route (a re-send names its own).
    if (!plan.carries.length) plan.carries = this.receipts.take(plan.messenger, plan.source.blockchainId, plan.destination.blockchainId);
    // A message whose source transaction is never indexed is invisible until it is delivered.
    if (plan.outcome !== 'sourceNotIndexed') this.write(plan, 'sent', plan.outcome === 'undelivered');
    if (plan.outcome !== 'undelivered') this.push({ at: plan.deliverAt, kind: 'deliver', plan });
  }

  private write(plan: MessagePlan, stage: Stage, final = false): void {
    if (this.bulk) {
      if (final) {
        this.bulk.delete(plan.messageId);
        this.held.push({ ts: sortTime(plan), record: recordOf(plan, stage) });
      } else this.bulk.set(plan.messageId, { plan, stage });
      return;
    }
    // The chain whose block holds the change: sent on the source; delivered on the destination; a receipt lands with its carrier on the source.
    this.emit(plan, recordOf(plan, stage), stage === 'delivered' ? plan.destination.blockchainId : plan.source.blockchainId);
  }

  /** A change happened now: written at once, or queued until its indexing lag has passed. */
  private emit(plan: MessagePlan, record: Record<string, unknown>, chainId: string): void {
    const happenedAt = this.simNow;
    const lag = plan.lagMs ?? (this.world.lag ? this.lags.lagOf(chainId, happenedAt) : 0);
    const dueAt = this.stallSchedule ? this.stallSchedule.visibleAt(chainId, happenedAt, happenedAt + lag) : happenedAt + lag;
    const { visibleAt, wait } = this.visibility.schedule(plan.messageId, dueAt, this.simNow);
    if (!wait) this.pendingWrites.push({ record, happenedAt });
    else this.push({ at: visibleAt, kind: 'visible', id: plan.messageId, record, happenedAt });
  }

  private flush(): void {
    if (this.pendingWrites.length === 0) return;
    const batch = this.pendingWrites;
    this.pendingWrites = [];
    const visibleAt = this.simNow;
    this.opts.sink(batch.map((w) => ({ record: w.record, happenedAt: w.happenedAt, visibleAt })));
  }
}
