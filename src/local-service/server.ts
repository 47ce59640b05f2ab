/**
 * The Data API server: the list and single-message operations of the Data API (both path families)
 * and the balance operation, over a SQLite store that one world fills (world.ts), with API keys, rate
 * limits and fault injection. It knows no world: compose-world.ts hands it one.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../shared/clock';
import { MAX_HEADER_BYTES } from '../shared/client-error-reply';
import { limitSlowClients, slowClientServerOptions } from '../shared/slow-clients';
import type { OwnNodeStatus } from '../shared/own-nodes';
import { FaultInjector, parseFaultSpec } from './faults';
import type { ResolvedServerOptions } from './options';
import { PageTokenCodec } from './page-token';
import { SlidingWindowLimiter } from './rate-limit';
import { guardRawRequests } from './raw-request-guard';
import { createRequestHandler } from './request-handler';
import { RecordStore } from './store/record-store';
import { warmFile } from './store/warm-file';
import type { RecordChange, World, WorldPlugin } from './world';

/** What every running service has, whatever its world. */
export interface ServerHandle {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  dbPath: string;
  store: RecordStore;
  /** Per-chain status of "your own nodes" (null when the service simulates traffic). */
  ownNodes(): OwnNodeStatus[] | null;
  /** Replaces the fault profile (null = none); throws on a bad spec. */
  setFaults(spec: string | null): void;
  /** Settles once the store file has been read into the OS cache (false: not asked, failed or stopped). */
  storeCached: Promise<boolean>;
  /** Requests received so far (all paths). */
  requestCount(): number;
  /**
   * Every batch of record changes, just before the store writes it (so `store.get` still returns the
   * previous state): the ground truth tests and benchmarks judge the monitor against. Returns unsubscribe.
   */
  onRecordChange(listener: (changes: readonly RecordChange[]) => void): () => void;
  close(): Promise<void>;
}

/** Opens the store, the world on it and the HTTP server on 127.0.0.1; everything opened is closed again on a failed start. */
export async function startServer<W extends World>(o: ResolvedServerOptions, plugin: WorldPlugin<W>): Promise<{ handle: ServerHandle; world: W }> {
  const clock = o.clock ?? systemClock;
  const tempDir = o.dbPath ? null : mkdtempSync(join(tmpdir(), 'teleporter-service-'));
  const dbPath = o.dbPath ?? join(tempDir!, 'service.sqlite');
  const store = new RecordStore(dbPath, { looseOrder: o.looseOrder, ...plugin.storeOptions });
  let server: Server | null = null;
  const changeListeners = new Set<(changes: readonly RecordChange[]) => void>();
  const log = o.log ?? ((line: string) => process.stderr.write(line + '\n'));
  let world: W | null = null;
  try {
    const opened = plugin.open({
      store,
      clock,
      log,
      listening: () => changeListeners.size > 0,
      emit: (changes) => {
        for (const l of changeListeners) l(changes);
      },
    });
    world = opened;

    const faults = new FaultInjector(opened.seed ?? o.seed);
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
      world: opened,
      tokens: new PageTokenCodec(store.secret('pageTokenSecret'), clock),
      limiter: new SlidingWindowLimiter(clock),
      faults,
      apiKeys: new Set(o.apiKeys),
      requireKey: o.requireKey,
      storeCached: () => cached,
      limits: o.limits,
      ...(o.onCharge ? { onCharge: o.onCharge } : {}),
      ...(o.onRefused ? { onRefused: o.onRefused } : {}),
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
    opened.start();

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
        await opened.stop();
        warming.abort();
        await storeCached;
        await new Promise<void>((resolve) => {
          srv.close(() => resolve());
          srv.closeAllConnections();
        });
        store.close();
        if (tempDir) rmSync(tempDir, { recursive: true, force: true });
      })());

    const handle: ServerHandle = {
      url: `http://127.0.0.1:${port}`,
      port,
      dbPath,
      store,
      ownNodes: () => opened.ownNodes?.() ?? null,
      setFaults,
      storeCached,
      requestCount: () => requests,
      onRecordChange: (l) => {
        changeListeners.add(l);
        return () => changeListeners.delete(l);
      },
      close,
    };
    return { handle, world: opened };
  } catch (e) {
    await world?.stop().catch(() => undefined);
    server?.close();
    store.close();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
    throw e;
  }
}
