/**
 * The local teleporter service: the list and single-message operations of the Data API (both path families) over a SQLite store fed by a
 * deterministic traffic simulator, with API keys, rate limits and fault injection.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { systemClock } from '../shared/clock';
import { FaultInjector, parseFaultSpec } from './faults';
import { resolveOptions, type ServiceOptions, type WorldOptions } from './options';
import { PageTokenCodec } from './page-token';
import { SlidingWindowLimiter } from './rate-limit';
import { createRequestHandler } from './request-handler';
import { historyMessageCount, historyRate, rememberedSeed } from '../simulator/history';
import { guardRawRequests } from './raw-request-guard';
import { MAX_HEADER_BYTES } from '../shared/client-error-reply';
import { limitSlowClients, slowClientServerOptions } from '../shared/slow-clients';
import { TrafficSimulator, type SimChange } from '../simulator/simulator';
import { RecordStore } from './store/record-store';
import { warmFile } from './store/warm-file';
import { ChainIndexer } from '../chain-index/chain-indexer';
import { ownChainNetworks } from '../chain-index/chain-networks';
import { answerOwnNodeBalance } from '../chain-index/balance-answer';
import { answerRelayerRewards } from '../chain-index/rewards-answer';
import type { OwnNodeStatus } from '../shared/own-nodes';

export type { ServiceOptions, WorldOptions } from './options';
export { PUBLIC_PLANS, OPERATION_WEIGHT, REALISTIC_CU_LIMITS, type CuLimits } from './compute-units';
export { RecordStore } from './store/record-store';
export type { StoreQuery, StorePage, StoreJsonPage } from './store/record-store';
export { TrafficSimulator } from '../simulator/simulator';
export type { SendOptions } from '../simulator/simulator';
export type { DemoRelayer, RelayerBehaviour, RelayerPersona, RelayerSchedule, RouteRef, Slowdown, TimeSpan } from '../simulator/relayer-personas';
export { FAULT_PRESETS, parseFaultSpec } from './faults';
export { API_FAMILIES, API_PREFIXES, type PathFamily } from './api-paths';
export { API_KEY_HEADER, API_KEY_HEADERS } from './api-key';

export interface RunningService {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  dbPath: string;
  store: RecordStore;
  simulator: TrafficSimulator;
  /** Per-chain status of "your own nodes" (null when the service simulates traffic). */
  ownNodes(): OwnNodeStatus[] | null;
  /** Replaces the fault profile (null = none); throws on a bad spec. */
  setFaults(spec: string | null): void;
  /** Settles once the store file has been read into the OS cache (false: not asked, failed or stopped). */
  storeCached: Promise<boolean>;
  /** Requests received so far (all paths). */
  requestCount(): number;
  /** The simulator's behaviours in effect (from the options and the realistic profile). */
  world: WorldOptions;
  /**
   * Every batch of record changes, just before the store writes it (so `store.get` still returns the
   * previous state): the ground truth tests and benchmarks judge the monitor against. Returns unsubscribe.
   */
  onRecordChange(listener: (changes: readonly RecordChange[]) => void): () => void;
  close(): Promise<void>;
}

/**
 * One record as the simulator changed it: `happenedAt` when the change happened on chain (clock ms),
 * `visibleAt` when it was written to the store (clock ms; later by the indexing lag, at most a tick).
 */
export type RecordChange = SimChange;

export async function startTeleporterService(options: ServiceOptions = {}): Promise<RunningService> {
  const o = resolveOptions(options);
  const clock = o.clock ?? systemClock;
  const tempDir = o.dbPath ? null : mkdtempSync(join(tmpdir(), 'teleporter-service-'));
  const dbPath = o.dbPath ?? join(tempDir!, 'service.sqlite');
  const { looseOrder, ...world } = o.world;
  // Own-nodes mode runs all day beside the monitor, as its indexer: its heap stays near its live size
  // (V8's --optimize-for-size, as the core's; docs/own-node.md "Costs").
  if (o.ownNodes) setFlagsFromString('--optimize-for-size');
  // Own-nodes mode stores what its chains say (a few records a second, read back near the head): a lean store.
  const store = new RecordStore(dbPath, { looseOrder, ...(o.ownNodes ? { chainNetworks: ownChainNetworks(o.ownNodes), memory: 'lean' as const } : {}) });
  let server: Server | null = null;
  const changeListeners = new Set<(changes: readonly RecordChange[]) => void>();
  try {
    const emitChanges = (records: readonly Record<string, unknown>[]) => {
      if (!changeListeners.size) return;
      const now = clock.now();
      const changes = records.map((record) => ({ record, happenedAt: now, visibleAt: now }));
      for (const l of changeListeners) l(changes);
    };
    const fresh = store.count() === 0;
    // A demo store keeps the seed it was filled with: its busy addresses survive restarts.
    const seed = o.history > 0 ? rememberedSeed(store, o.seed) : o.seed;
    const simulator = new TrafficSimulator({
      seed,
      rate: o.ownNodes ? 0 : o.rate,
      speed: o.speed,
      startMs: clock.now(),
      addressCount: o.addressCount,
      tickMs: o.tickMs,
      world: { ...world, ...(o.relayers !== undefined ? { relayers: o.relayers } : {}) },
      sink: (changes) => {
        if (changeListeners.size) for (const l of changeListeners) l(changes);
        store.upsertMany(changes.map((c) => c.record));
      },
    });
    if (o.preload > 0) store.bulkLoad(() => simulator.preload(o.preload));
    const history = fresh ? historyMessageCount(o.history, o.rate) : 0;
    if (history > 0) store.bulkLoad(() => simulator.preload(history, historyRate(o.rate)));
    if (!o.ownNodes) simulator.attach(clock);
    const log = o.log ?? ((line: string) => process.stderr.write(line + '\n'));
    const indexer = o.ownNodes ? new ChainIndexer({ store, config: o.ownNodes, clock, log, onRecords: emitChanges }) : null;

    const faults = new FaultInjector(seed);
    const setFaults = (spec: string | null) => {
      if (spec === null) return faults.set(null);
      const parsed = parseFaultSpec(spec);
      if (!parsed.ok) throw new Error(parsed.error);
      faults.set(parsed.value);
    };
    if (o.faults) setFaults(o.faults);

    let requests = 0;
    let cached = false;
    const handler = createRequestHandler({
      store,
      simulator,
      tokens: new PageTokenCodec(store.secret('pageTokenSecret'), clock),
      limiter: new SlidingWindowLimiter(clock),
      faults,
      apiKeys: new Set(o.apiKeys),
      requireKey: o.requireKey,
      storeCached: () => cached,
      world: o.world,
      ownNodes: () => indexer?.statuses() ?? null,
      ...(indexer
        ? {
            ownNodeBalance: (path, params) => answerOwnNodeBalance(indexer.reads, path, params),
            ownNodeRewards: (params) => answerRelayerRewards(indexer.reads, params),
          }
        : {}),
      limits: o.limits,
      ...(o.onCharge ? { onCharge: o.onCharge } : {}),
      ...(o.onRefuse ? { onRefuse: o.onRefuse } : {}),
      ...(o.logRequests ? { onRequest: (r) => log(`${r.method} ${r.path} ${r.status} ${r.ms.toFixed(1)}ms ${r.caller}`) } : {}),
    });
    const srv = createServer({ maxHeaderSize: MAX_HEADER_BYTES, ...slowClientServerOptions() }, (req, res) => {
      requests++;
      handler(req, res);
    });
    guardRawRequests(srv);
    server = srv;
    srv.keepAliveTimeout = 5_000;
    limitSlowClients(srv);
    await new Promise<void>((resolve, reject) => {
      srv.once('error', reject);
      srv.listen(o.port, '127.0.0.1', () => {
        srv.off('error', reject);
        resolve();
      });
    });
    const port = (srv.address() as AddressInfo).port;
    indexer?.start();

    const warming = new AbortController();
    const storeCached = o.warmStore
      ? warmFile(dbPath, warming.signal).then(
          (r) => {
            cached = !warming.signal.aborted;
            if (cached && r.bytes >= 64 * 1024 * 1024) log(`store file cached: ${(r.bytes / 1048576).toFixed(0)} MB read in ${(r.ms / 1000).toFixed(1)} s`);
            return cached;
          },
          () => false,
        )
      : Promise.resolve(false);

    let closing: Promise<void> | null = null;
    const close = () =>
      (closing ??= (async () => {
        simulator.detachClock();
        await indexer?.stop();
        warming.abort();
        await storeCached;
        await new Promise<void>((resolve) => {
          srv.close(() => resolve());
          srv.closeAllConnections();
        });
        store.close();
        if (tempDir) rmSync(tempDir, { recursive: true, force: true });
      })());

    return {
      url: `http://127.0.0.1:${port}`,
      port,
      dbPath,
      store,
      simulator,
      ownNodes: () => indexer?.statuses() ?? null,
      setFaults,
      storeCached,
      requestCount: () => requests,
      world: o.world,
      onRecordChange: (l) => {
        changeListeners.add(l);
        return () => changeListeners.delete(l);
      },
      close,
    };
  } catch (e) {
    server?.close();
    store.close();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
    throw e;
  }
}
