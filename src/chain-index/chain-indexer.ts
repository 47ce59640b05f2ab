/**
 * "Your own nodes": follows every configured chain's TeleporterMessenger and keeps the service's
 * record store in step, so the service answers the Data API's operations (lookup by ID, by address,
 * every filter, the paging contract) from the chains themselves. Each chain is scanned on its own
 * timer (the injected clock): at once again while blocks are waiting, after the poll interval when
 * caught up, backing off up to a minute while its node fails. A WebSocket URL adds a new-block
 * subscription that wakes the scan as soon as a block arrives.
 */
import { createPublicClient, webSocket } from 'viem';
import type { Clock } from '../shared/clock';
import { chainByBlockchainId } from '../shared/chains';
import type { OwnNodes, OwnNodeStatus } from '../shared/own-nodes';
import { EARLIEST_RECORD_TIME_S, FUTURE_TIME_TOLERANCE_S } from '../shared/policy';
import { encodeCb58 } from '../shared/validators';
import type { RecordStore } from '../local-service/store/record-store';
import { ChainEvents } from './chain-events';
import { ChainScanner } from './chain-scanner';
import { OwnNodeReads } from './node-reads';
import { buildRecord, type BuildContext } from './record-builder';
import { TokenInfos } from './token-infos';
import { MINUTE_MS } from '../shared/time';

const MAX_BACKOFF_MS = MINUTE_MS;
/** The node's chain ID is asked again every this many poll intervals (20 s at the default 2 s): a node may switch chains while connected. */
const CHAIN_ID_EVERY_POLLS = 10;
/** The store's meta key that says its events were checked for block times out of range (once per store file). */
const TIMES_CHECKED_KEY = 'blockTimesChecked';

interface IndexerOptions {
  store: RecordStore;
  config: OwnNodes;
  clock: Clock;
  log: (line: string) => void;
  /** Called with the records of every committed range, before they are written (the ground truth tests compare with). */
  onRecords?: (records: readonly Record<string, unknown>[]) => void;
}

export class ChainIndexer {
  private readonly events: ChainEvents;
  private readonly scanners: ChainScanner[];
  private readonly timers = new Map<ChainScanner, () => void>();
  private readonly running = new Set<ChainScanner>();
  private readonly wake = new Set<ChainScanner>();
  private readonly failures = new Map<ChainScanner, number>();
  private readonly unsubscribers: (() => void)[] = [];
  private stopped = false;
  private readonly ctx: BuildContext;
  /** Reads answered from a node on demand (balances, redeemable rewards), not from the store. */
  readonly reads: OwnNodeReads;

  constructor(private readonly o: IndexerOptions) {
    this.events = o.store.attach((db) => new ChainEvents(db));
    const tokens = new TokenInfos(o.store);
    const configured = new Map(o.config.chains.map((c) => [c.blockchainId, c]));
    this.ctx = {
      cb58Of: (hex) => encodeCb58(Uint8Array.from(Buffer.from(hex.slice(2), 'hex'))),
      evmChainIdOf: (id) => configured.get(id)?.evmChainId ?? this.events.evmChainId(id) ?? chainByBlockchainId(id)?.evmChainId ?? '0',
      tokenInfo: (chain, token) => tokens.get(chain, token),
    };
    this.scanners = o.config.chains.map(
      (cfg) =>
        new ChainScanner(cfg, {
          events: this.events,
          tokens,
          confirmations: o.config.confirmations,
          transaction: (fn) => o.store.transaction(fn),
          rebuild: (ids) => this.rebuild(ids),
          log: o.log,
          now: () => o.clock.now(),
          timeoutMs: o.config.requestTimeoutMs,
          chainIdEveryMs: CHAIN_ID_EVERY_POLLS * o.config.pollIntervalMs,
        }),
    );
    this.reads = new OwnNodeReads(o.config, (id) => this.scanners.find((s) => s.chain === id)?.status.evmChainId ?? null);
    this.dropTimesOutOfRange();
  }

  /**
   * Once per store file: events a node sent before block times were checked (node-answers.ts' blockTime)
   * whose time is out of range are dropped, and their messages rebuilt from what is left.
   */
  private dropTimesOutOfRange(): void {
    if (this.o.store.getMeta(TIMES_CHECKED_KEY)) return;
    const latest = Math.floor(this.o.clock.now() / 1000) + FUTURE_TIME_TOLERANCE_S;
    this.o.store.transaction(() => {
      const ids = this.events.dropTimesOutside(EARLIEST_RECORD_TIME_S, latest);
      this.rebuild(ids);
      if (ids.length)
        this.o.log(
          `own nodes: events of ${ids.length} message(s) stored with a block time out of range were dropped; those messages were rebuilt from what is left`,
        );
      this.o.store.setMeta(TIMES_CHECKED_KEY, String(this.o.clock.now()));
    });
  }

  /** Rebuilds each message's record from its events: written, or removed when no event of it is left. */
  private rebuild(ids: Iterable<string>): void {
    const records: Record<string, unknown>[] = [];
    for (const id of ids) {
      const rec = buildRecord(this.events.ofMessage(id), this.ctx);
      if (rec) records.push(rec);
      else this.o.store.remove(id);
    }
    if (!records.length) return;
    this.o.onRecords?.(records);
    this.o.store.upsertMany(records);
  }

  start(): void {
    for (const s of this.scanners) {
      this.schedule(s, 0);
      const ws = this.o.config.chains.find((c) => c.blockchainId === s.chain)?.wsUrl;
      if (ws) this.subscribe(s, ws);
    }
  }

  private subscribe(s: ChainScanner, wsUrl: string): void {
    try {
      const client = createPublicClient({ transport: webSocket(wsUrl, { retryCount: 1_000_000 }) });
      this.unsubscribers.push(client.watchBlockNumber({ emitOnBegin: false, onBlockNumber: () => this.nudge(s), onError: () => undefined }));
    } catch (e) {
      this.o.log(`${s.status.name}: no WebSocket subscription (${(e as Error).message}); polling only`);
    }
  }

  /** A new block: scan now (or right after the scan in progress). */
  private nudge(s: ChainScanner): void {
    if (this.stopped) return;
    if (this.running.has(s)) return void this.wake.add(s);
    this.schedule(s, 0);
  }

  private schedule(s: ChainScanner, ms: number): void {
    this.timers.get(s)?.();
    this.timers.set(
      s,
      this.o.clock.setTimer(() => void this.run(s), ms),
    );
  }

  private async run(s: ChainScanner): Promise<void> {
    if (this.stopped || this.running.has(s)) return;
    this.running.add(s);
    this.timers.delete(s);
    const startedAt = this.o.clock.now();
    let more = false;
    try {
      more = await s.scan();
    } finally {
      this.running.delete(s);
    }
    if (this.stopped) return;
    const failed = s.status.state !== 'ok';
    const n = failed ? (this.failures.get(s) ?? 0) + 1 : 0;
    this.failures.set(s, n);
    const interval = this.o.config.pollIntervalMs;
    const woken = this.wake.delete(s);
    // Caught up: the next scan starts one interval after this one started, so a slow scan does not stretch the interval.
    const caughtUp = Math.max(0, interval - (this.o.clock.now() - startedAt));
    this.schedule(s, failed ? Math.min(MAX_BACKOFF_MS, interval * 2 ** Math.min(n - 1, 10)) : more || woken ? 0 : caughtUp);
  }

  statuses(): OwnNodeStatus[] {
    return this.scanners.map((s) => ({ ...s.status }));
  }

  /** Stops every timer and subscription; resolves once no scan is running. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
    for (const u of this.unsubscribers) u();
    while (this.running.size) await new Promise((r) => setTimeout(r, 10));
  }
}
