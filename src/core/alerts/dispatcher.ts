import type { LookupFunction } from 'node:net';
import { Agent } from 'undici';
import type { AlertChannelConfig, AlertChannelState } from '../../shared/alert-schemas';
import type { OwnChain } from '../../shared/chains';
import type { Clock } from '../../shared/clock';
import { visibleText } from '../../shared/visible-text';
import type { Logger } from '../log/logger';
import type { Db } from '../store/database';
import { WatchLabels } from '../store/watch-labels';
import { toAlertRecord } from './alert-record';
import { retryDelayMs } from './backoff';
import { createChannel, type AlertChannel, type ChannelTargets } from './channels';
import { AlertDeliveryStore } from './delivery-store';
import { DeliveryError } from './post-json';
import { refusingLookup } from './target-lookup';

/**
 * One delivery attempt to a channel: `count` alerts sent, or failed with `error` (redacted by the
 * core before it leaves) and its short `reason`; then the channel's state after it.
 */
export interface DeliveryReport {
  channel: string;
  outcome: 'sent' | 'failed';
  count: number;
  error?: string;
  /** "HTTP 500", "ECONNREFUSED", "timeout"…: what the console reports once per change. */
  reason?: string;
  /** Failed attempts in a row (0 after a success). */
  failures: number;
  /** While failing: since when (epoch ms), and when the next attempt is due. */
  failingSince: number | null;
  nextAttemptAt: number | null;
  /** Alerts still waiting for this channel. */
  pending: number;
}

interface AlertDispatcherOptions {
  channels: AlertChannelConfig[];
  /** The link an alert carries back to its message. */
  messageLink: (messageId: string) => string;
  /** The retry wait's base and cap (default ALERT_RETRY_BASE_MS and ALERT_RETRY_MAX_MS, src/shared/policy.ts). */
  retryBaseMs?: number;
  maxRetryMs?: number;
  /** The jitter's draw in [0, 1) (default Math.random; tests fix it). */
  random?: () => number;
  /** Where each channel may send (default: no link-local or metadata address, refusals worded for Settings). */
  targets?: (c: AlertChannelConfig) => ChannelTargets;
  /** The resolver under the address check (default: the system's; tests resolve their own names). */
  lookup?: LookupFunction;
  /** Each attempt's result; a failure carries the receiver's error (no URL path or query: post-json.ts). */
  onResult?: (r: DeliveryReport) => void;
  /** Your own nodes' chains while they are the data source: an alert's route is named by their names. */
  ownChains?: () => readonly OwnChain[];
}

const ROWS_PER_DRAIN = 500;
/** A retry timer never spins faster than this. */
const MIN_RETRY_WAIT_MS = 100;
const DEFAULT_TARGETS: ChannelTargets = { allowLinkLocal: false, how: 'settings' };

/**
 * Sends outbox rows to every configured alert channel. Each channel keeps its own delivery rows and
 * sends them in order, so a receiver that is down holds back only its own alerts. A failing channel
 * backs off as a whole (exponential with jitter, capped: backoff.ts): the rows behind the failed one
 * wait with it, and nothing is sent to it before its retry time, however often a poll cycle asks.
 * Every row is delivered once the receiver takes it, in order, across restarts (the store keeps it).
 */
export class AlertDispatcher {
  private readonly store: AlertDeliveryStore;
  private readonly labels: WatchLabels;
  private channels: AlertChannel[];
  /** One connection pool per kind of target check (open, or refusing with the Settings' or the config's wording). */
  private readonly agents = new Map<string, Agent>();
  /** When each failing channel began failing in this run (after a restart: its oldest waiting alert's time). */
  private readonly failingSince = new Map<string, number>();
  private readonly abort = new AbortController();
  private running: Promise<void> | null = null;
  private again = false;
  private timerCancel: (() => void) | null = null;
  private closed = false;

  constructor(
    db: Db,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly o: AlertDispatcherOptions,
  ) {
    this.store = new AlertDeliveryStore(db);
    this.labels = new WatchLabels(db);
    this.channels = this.build(o.channels);
  }

  /**
   * Replaces the channel list (settings changed). Kept channels keep their cursor and pending rows;
   * removed ones are forgotten. A running drain finishes with the old list first, so no row is ever
   * sent twice by two generations of one channel.
   */
  setChannels(configs: AlertChannelConfig[]): Promise<void> {
    if (this.closed) return Promise.resolve();
    const next = this.build(configs);
    for (const old of this.channels) if (!next.some((c) => c.id === old.id)) this.store.forget(old.id);
    this.channels = next;
    return this.drain();
  }

  private build(configs: AlertChannelConfig[]): AlertChannel[] {
    const channels = configs.map((c) => {
      const targets = this.o.targets?.(c) ?? DEFAULT_TARGETS;
      return createChannel(c, this.agentFor(targets), () => this.clock.now(), targets);
    });
    for (const c of channels) this.store.register(c.id);
    return channels;
  }

  private agentFor(t: ChannelTargets): Agent {
    const kind = t.allowLinkLocal ? 'open' : t.how;
    let agent = this.agents.get(kind);
    if (!agent) {
      const lookup = t.allowLinkLocal ? this.o.lookup : refusingLookup(t.how, this.o.lookup);
      agent = new Agent({ keepAliveTimeout: 10_000, connections: 4, ...(lookup ? { connect: { lookup } } : {}) });
      this.agents.set(kind, agent);
    }
    return agent;
  }

  get channelNames(): string[] {
    return this.channels.map((c) => c.name);
  }

  pending(): number {
    return this.channels.reduce((n, c) => n + this.store.pendingCount(c.id), 0);
  }

  /** Each channel's delivery state: what waits, failures in a row, since when, the next try. */
  states(): AlertChannelState[] {
    return this.channels.map((c) => this.stateOf(c));
  }

  private stateOf(c: AlertChannel): AlertChannelState {
    const head = this.store.head(c.id);
    const failing = head !== null && head.attempts > 0;
    return {
      key: c.key,
      name: c.name,
      pending: this.store.pendingCount(c.id),
      failures: failing ? head.attempts : 0,
      failingSince: failing ? (this.failingSince.get(c.id) ?? head.createdAt) : null,
      nextAttemptAt: failing ? head.nextAttemptAt : null,
      lastError: failing && head.lastError !== null ? visibleText(head.lastError) : null,
    };
  }

  /** Sends what is due on every channel; joins a running drain (and runs once more after it). */
  drain(): Promise<void> {
    if (!this.channels.length) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await Promise.all(this.channels.map((c) => this.drainChannel(c)));
      } while (this.again && !this.closed);
    })().finally(() => {
      this.running = null;
      this.scheduleRetry();
    });
    return this.running;
  }

  /** Stops retrying; a last drain gets `graceMs`, then in-flight requests are cancelled (rows stay for the next start). */
  async close(graceMs = 5_000): Promise<void> {
    if (this.closed) return;
    this.timerCancel?.();
    const last = this.drain().catch(() => {});
    this.closed = true;
    let cancelTimer: (() => void) | null = null;
    const timeout = new Promise<void>((resolve) => {
      cancelTimer = this.clock.setTimer(resolve, graceMs);
    });
    await Promise.race([last, timeout]);
    (cancelTimer as (() => void) | null)?.();
    this.abort.abort(new Error('shutting down'));
    await last;
    this.timerCancel?.();
    await Promise.all([...this.agents.values()].map((a) => a.close().catch(() => a.destroy())));
  }

  private async drainChannel(c: AlertChannel): Promise<void> {
    // A channel replaced by setChannels stops here (its rows may be forgotten; the new list takes over).
    const current = () => this.channels.includes(c);
    for (;;) {
      if (!current()) return;
      // Nothing while the channel's head waits for its retry time: the rows behind it wait with it.
      const rows = this.store.due(c.id, this.clock.now(), ROWS_PER_DRAIN);
      if (!rows.length) return;
      for (let i = 0; i < rows.length; i += c.batchSize) {
        if (!current()) return;
        const batch = rows.slice(i, i + c.batchSize);
        const ids = batch.map((r) => r.outboxId);
        const own = this.o.ownChains?.();
        try {
          await c.send(
            batch.map((r) => toAlertRecord(r, (k) => this.labels.of(k), this.o.messageLink, own)),
            this.abort.signal,
          );
          this.store.delivered(c.id, ids, this.clock.now());
          this.failingSince.delete(c.id);
          this.report(c, { outcome: 'sent', count: ids.length });
        } catch (e) {
          this.failed(c, batch, e);
          return;
        }
      }
      if (rows.length < ROWS_PER_DRAIN || this.closed) return;
    }
  }

  /** Puts the channel's next attempt off (the batch starts at its head, so its attempts are the channel's failures in a row). */
  private failed(c: AlertChannel, batch: { outboxId: number; attempts: number }[], e: unknown): void {
    const now = this.clock.now();
    const failures = Math.max(...batch.map((r) => r.attempts)) + 1;
    const wait = retryDelayMs(failures, this.o.random, this.o.retryBaseMs, this.o.maxRetryMs);
    const message = e instanceof Error ? e.message : String(e);
    const reason = e instanceof DeliveryError ? e.reason : 'error';
    if (!this.failingSince.has(c.id)) this.failingSince.set(c.id, failures > 1 ? (this.store.head(c.id)?.createdAt ?? now) : now);
    this.store.failed(
      c.id,
      batch.map((r) => r.outboxId),
      now + wait,
      message,
    );
    this.logger.warn('alert not delivered; will retry', { channel: c.name, alerts: batch.length, failures, retryInMs: wait, error: message });
    this.report(c, { outcome: 'failed', count: batch.length, error: message, reason });
  }

  private report(c: AlertChannel, r: Pick<DeliveryReport, 'outcome' | 'count' | 'error' | 'reason'>): void {
    if (!this.o.onResult) return;
    const { failures, failingSince, nextAttemptAt, pending } = this.stateOf(c);
    this.o.onResult({ channel: c.name, ...r, failures, failingSince, nextAttemptAt, pending });
  }

  /** Wakes up when the earliest failing channel is due again. */
  private scheduleRetry(): void {
    this.timerCancel?.();
    this.timerCancel = null;
    if (this.closed) return;
    const due = this.channels.map((c) => this.store.nextDueAt(c.id)).filter((t): t is number => t !== null);
    if (!due.length) return;
    const wait = Math.max(MIN_RETRY_WAIT_MS, Math.min(...due) - this.clock.now());
    this.timerCancel = this.clock.setTimer(() => void this.drain().catch((e: unknown) => this.logger.error('alert drain failed', { error: e })), wait);
  }
}
