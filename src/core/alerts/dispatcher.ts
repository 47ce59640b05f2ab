import { Agent } from 'undici';
import type { AlertChannelConfig } from '../../shared/alert-schemas';
import type { OwnChain } from '../../shared/chains';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../log/logger';
import type { Db } from '../store/database';
import { WatchLabels } from '../store/watch-labels';
import { toAlertRecord } from './alert-record';
import { createChannel, type AlertChannel } from './channels';
import { AlertDeliveryStore } from './delivery-store';

interface AlertDispatcherOptions {
  channels: AlertChannelConfig[];
  /** The link an alert carries back to its message. */
  messageLink: (messageId: string) => string;
  /** First retry delay; doubles per attempt up to maxRetryMs (default 2 s and 5 min). */
  retryBaseMs?: number;
  maxRetryMs?: number;
  /** Each attempt's result; a failure carries the receiver's error (no URL path or query: post-json.ts). */
  onResult?: (channel: string, outcome: 'sent' | 'failed', count: number, error?: string) => void;
  /** Your own nodes' chains while they are the data source: an alert's route is named by their names. */
  ownChains?: () => readonly OwnChain[];
}

const ROWS_PER_DRAIN = 500;
/** A retry timer never spins faster than this. */
const MIN_RETRY_WAIT_MS = 100;

/**
 * Sends outbox rows to every configured alert channel. Each channel keeps its own delivery rows, so a
 * receiver that is down holds back only its own alerts: they are retried with exponential backoff
 * (and after every poll cycle) until accepted, and a restart resumes from the store without repeats.
 */
export class AlertDispatcher {
  private readonly store: AlertDeliveryStore;
  private readonly labels: WatchLabels;
  private channels: AlertChannel[];
  private readonly agent = new Agent({ keepAliveTimeout: 10_000, connections: 4 });
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
    const channels = configs.map((c) => createChannel(c, this.agent, () => this.clock.now()));
    for (const c of channels) this.store.register(c.id);
    return channels;
  }

  get channelNames(): string[] {
    return this.channels.map((c) => c.name);
  }

  pending(): number {
    return this.channels.reduce((n, c) => n + this.store.pendingCount(c.id), 0);
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
    await this.agent.close().catch(() => this.agent.destroy());
  }

  private async drainChannel(c: AlertChannel): Promise<void> {
    // A channel replaced by setChannels stops here (its rows may be forgotten; the new list takes over).
    const current = () => this.channels.includes(c);
    for (;;) {
      if (!current()) return;
      const now = this.clock.now();
      const rows = this.store.due(c.id, now, ROWS_PER_DRAIN);
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
          this.o.onResult?.(c.name, 'sent', ids.length);
        } catch (e) {
          const attempts = Math.max(...batch.map((r) => r.attempts)) + 1;
          const wait = this.backoff(attempts);
          const message = e instanceof Error ? e.message : String(e);
          this.store.failed(c.id, ids, this.clock.now() + wait, message);
          this.o.onResult?.(c.name, 'failed', ids.length, message);
          this.logger.warn('alert not delivered; will retry', { channel: c.name, alerts: ids.length, attempts, retryInMs: wait, error: message });
          // Later rows would meet the same receiver: leave them for the retry.
          return;
        }
      }
      if (rows.length < ROWS_PER_DRAIN || this.closed) return;
    }
  }

  private backoff(attempts: number): number {
    const base = this.o.retryBaseMs ?? 2_000;
    const max = this.o.maxRetryMs ?? 300_000;
    const raw = Math.min(max, base * 2 ** Math.min(attempts - 1, 20));
    return Math.round(raw * (0.75 + 0.25 * Math.random()));
  }

  /** Wakes up when the earliest failed delivery is due again. */
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
