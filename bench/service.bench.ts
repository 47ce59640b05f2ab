/**
 * `npm run bench:service`: page-request latency of the local service over real HTTP with
 * 1,000,000 messages in the store, for every filter combination and for deep cursors.
 * The store is built once (simulator preload, fixed seed) and cached in bench/.cache/ (gitignored).
 * The service runs as its own process (the CLI, as the app starts it) and the timing client as a
 * third one (bench/service-client.ts, a garbage-free HTTP client), so neither shares an event loop with
 * the other or with this process (which reads the service's request log). Timing starts once the
 * service has read its store file into the OS cache, as it does at every start (BENCH_COLD=1 starts it
 * with --no-warm and times at once). Progress goes to stderr;
 * stdout gets ONE JSON line of figures.
 */
import { fork, spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { Pool } from 'undici';
import { ManualClock } from '../src/shared/clock';
import { CHAIN_REGISTRY } from '../src/shared/chains';
import { startLocalService } from '../src/local-service/index';
import { SCHEMA_VERSION } from '../src/local-service/store/schema';
import type { MeasureReply } from './service-client';
import { waitFor } from '../test/support/wait-for';
import { envNumber } from './targets';

const MESSAGES = envNumber('BENCH_MESSAGES', 1_000_000);
const SEED = 20260101;
const REQUESTS = envNumber('BENCH_REQUESTS', 300);
/** Pages of the deepest filtered walk (the hot-address walks take half). */
const DEEP_PAGES = envNumber('BENCH_DEEP_PAGES', 3000);
const TARGET_P99_MS = envNumber('BENCH_TARGET_P99_MS', 10);
const CACHE_DIR = resolve(process.env.BENCH_CACHE_DIR ?? join(process.cwd(), 'bench/.cache'));
const log = (s: string) => process.stderr.write(s + '\n');

async function cachedStore(): Promise<{ path: string; buildSeconds: number | null }> {
  mkdirSync(CACHE_DIR, { recursive: true });
  // Keeps the multi-gigabyte cache out of git even where the top-level .gitignore does not list it.
  if (!existsSync(join(CACHE_DIR, '.gitignore'))) writeFileSync(join(CACHE_DIR, '.gitignore'), '*\n');
  const path = join(CACHE_DIR, `service-${MESSAGES}-seed${SEED}-v${SCHEMA_VERSION}.sqlite`);
  if (existsSync(path)) return { path, buildSeconds: null };
  const building = `${path}.building`;
  for (const f of [building, `${building}-wal`, `${building}-shm`]) rmSync(f, { force: true });
  log(`building a store of ${MESSAGES} messages (once; cached as ${path}) ...`);
  const t0 = performance.now();
  const s = await startLocalService({ dbPath: building, preload: MESSAGES, rate: 0, seed: SEED, clock: new ManualClock(Date.UTC(2026, 0, 1)) });
  log(`  ${s.store.count()} messages in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  await s.close();
  renameSync(building, path); // only a finished build is ever reused
  return { path, buildSeconds: (performance.now() - t0) / 1000 };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
const round = (n: number) => Math.round(n * 100) / 100;

function serverFigures(times: number[]): { serverP50?: number; serverP99?: number } {
  if (times.length === 0) return {};
  const sorted = [...times].sort((a, b) => a - b);
  return { serverP50: round(percentile(sorted, 50)), serverP99: round(percentile(sorted, 99)) };
}

interface Figures {
  /** Round trip over HTTP as the client sees it, ms. */
  p50: number;
  p99: number;
  /** Time inside the service (request received to response written), ms. */
  serverP50?: number;
  serverP99?: number;
  max: number;
  requests: number;
  /** Messages on the first page (0 = the combination matches nothing). */
  firstPage: number;
}

/** The timing client, a process of its own (bench/service-client.ts). */
function startClient(url: string) {
  const child = fork(resolve(process.cwd(), 'bench/service-client.ts'), [url], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, { resolve: (r: MeasureReply) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  const ready = new Promise<void>((resolveReady, reject) => {
    child.on('message', (m: MeasureReply | { type: 'ready' } | { type: 'error'; id: number; message: string }) => {
      if (m.type === 'ready') return resolveReady();
      const w = waiting.get(m.id);
      waiting.delete(m.id);
      if (m.type === 'error') w?.reject(new Error(m.message));
      else w?.resolve(m);
    });
    child.once('exit', (code) => {
      const e = new Error(`the timing client exited with ${code}`);
      reject(e);
      for (const w of waiting.values()) w.reject(e);
    });
  });
  /** Walks pages (restarting at the end) and times each request until `n` requests are done. */
  const measure = async (path: string, params: Record<string, string>, n: number): Promise<Figures & { deepestPage: number }> => {
    await ready;
    const id = nextId++;
    const reply = await new Promise<MeasureReply>((resolveReply, reject) => {
      waiting.set(id, { resolve: resolveReply, reject });
      child.send({ type: 'measure', id, path, params, n });
    });
    const times = [...reply.times].sort((a, b) => a - b);
    return {
      p50: round(percentile(times, 50)),
      p99: round(percentile(times, 99)),
      max: round(times[times.length - 1]!),
      requests: times.length,
      firstPage: reply.firstPage,
      deepestPage: reply.deepestPage,
    };
  };
  const stop = () => new Promise<void>((done) => (child.exitCode !== null ? done() : (child.once('exit', () => done()), child.send({ type: 'stop' }))));
  return { measure, stop };
}

/**
 * Starts `npm run service` on the cached file and waits for its listening line. Its request log
 * (stderr) gives the time each request spent inside the service, apart from the client and the OS.
 */
function startServiceProcess(dbPath: string, warm: boolean) {
  const args = [
    '--import',
    'tsx',
    'src/local-service/cli.ts',
    '--port',
    '0',
    '--db',
    dbPath,
    '--rate',
    '0',
    '--seed',
    String(SEED),
    '--rate-limit',
    '1000000000,1000000000',
    '--log-requests',
  ];
  if (!warm) args.push('--no-warm');
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const serverMs: number[] = [];
  let partial = '';
  child.stderr.on('data', (d: Buffer) => {
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      const m = /^GET \S+ \d+ ([\d.]+)ms /.exec(line);
      if (m) serverMs.push(Number(m[1]));
      else if (line.trim()) log(`  service: ${line}`);
    }
  });
  const url = new Promise<string>((resolveUrl, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m) resolveUrl(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the service exited with ${code} before listening`)));
  });
  const stop = () => new Promise<void>((done) => (child.exitCode !== null ? done() : (child.once('exit', () => done()), child.kill('SIGTERM'))));
  /** Server-side times of the requests after `from`, once `count` of them have been logged. */
  const serverTimes = async (from: number, count: number): Promise<number[]> => {
    // The log lines trail the answers a little; after 2 s, report what arrived.
    await waitFor(() => serverMs.length >= from + count, 2_000, 'the request log').catch(() => undefined);
    return serverMs.slice(from, from + count);
  };
  return { url, stop, logged: () => serverMs.length, serverTimes };
}

async function main(): Promise<void> {
  const { path, buildSeconds } = await cachedStore();
  // BENCH_COLD=1 times the store in whatever state the OS cache has it (figures then include disk reads).
  const warm = process.env.BENCH_COLD !== '1';
  const service = startServiceProcess(path, warm);
  const url = await service.url;
  const pool = new Pool(url, { connections: 1, pipelining: 1 }); // only for /_local/info (not timed)
  const client = startClient(url);
  let served = 0;
  // Latency tails depend on what else runs on the machine: record it with the figures.
  const loadAtStart = loadavg()[0]!;
  try {
    const readInfo = async () =>
      (await (await pool.request({ path: '/_local/info', method: 'GET' })).body.json()) as {
        messageCount: number;
        addresses: string[];
        hotAddresses: string[];
        storeCached: boolean;
      };
    const warmStart = performance.now();
    const cached = async () => {
      const i = await readInfo();
      return i.storeCached ? i : undefined;
    };
    const info = warm ? await waitFor(cached, 120_000, 'the store in the OS cache').catch(readInfo) : await readInfo();
    const storeReadSeconds = warm ? (performance.now() - warmStart) / 1000 : null;
    if (warm) log(`the service read its store file into the OS cache: ${info.storeCached ? 'done' : 'NOT done'} after ${storeReadSeconds!.toFixed(1)} s`);
    const count = info.messageCount;
    const [hot, hot2] = info.hotAddresses as [string, string];
    const cold = info.addresses[180]!;
    const chain = (name: string, network: string) => CHAIN_REGISTRY.chains.find((c) => c.name === name && c.network === network)!;
    const cMain = chain('C-Chain', 'mainnet');
    const beam = chain('Beam', 'mainnet');
    const dispatch = chain('Dispatch', 'fuji');
    const L = '/v1/teleporter/messages';
    const combos: [string, string, Record<string, string>][] = [
      ['none', L, {}],
      ['network', L, { network: 'mainnet' }],
      ['source(cb58)', L, { sourceBlockchainId: cMain.blockchainId }],
      ['source(evm)', L, { sourceBlockchainId: beam.evmChainId }],
      ['destination', L, { destinationBlockchainId: dispatch.blockchainId }],
      ['blockchainId', L, { blockchainId: beam.blockchainId }],
      ['from(hot)', L, { from: hot }],
      ['from(cold)', L, { from: cold }],
      ['to(hot)', L, { to: hot2 }],
      ['source+destination', L, { sourceBlockchainId: beam.blockchainId, destinationBlockchainId: cMain.blockchainId }],
      ['source+from', L, { sourceBlockchainId: cMain.blockchainId, from: hot }],
      ['source+to', L, { sourceBlockchainId: beam.evmChainId, to: cold }],
      ['destination+from', L, { destinationBlockchainId: cMain.blockchainId, from: cold }],
      ['destination+to', L, { destinationBlockchainId: dispatch.evmChainId, to: hot }],
      ['blockchainId+from', L, { blockchainId: cMain.blockchainId, from: hot2 }],
      ['blockchainId+to', L, { blockchainId: dispatch.blockchainId, to: cold }],
      ['network+from', L, { network: 'fuji', from: hot }],
      ['network+to', L, { network: 'mainnet', to: cold }],
      ['from+to(hot,hot: jointly rare)', L, { from: hot, to: hot2 }],
      ['from+to(cold,hot)', L, { from: cold, to: hot }],
      ['network+source+destination', L, { network: 'mainnet', sourceBlockchainId: cMain.blockchainId, destinationBlockchainId: beam.blockchainId }],
      ['network+blockchainId+from+to', L, { network: 'mainnet', blockchainId: cMain.blockchainId, from: hot, to: hot2 }],
      [
        'all six filters',
        L,
        {
          network: 'mainnet',
          sourceBlockchainId: beam.blockchainId,
          destinationBlockchainId: cMain.evmChainId,
          blockchainId: beam.blockchainId,
          from: hot2,
          to: hot,
        },
      ],
      ['contradiction(mainnet+fuji source)', L, { network: 'mainnet', sourceBlockchainId: dispatch.blockchainId }],
      ['address op(hot)', `/v1/teleporter/addresses/${hot}/messages`, {}],
      ['address op(cold)+network', `/v1/icm/addresses/${cold}/messages`, { network: 'mainnet' }],
      ['address op(hot)+network', `/v1/teleporter/addresses/${hot}/messages`, { network: 'fuji' }],
    ];
    log(`store: ${count} messages; ${REQUESTS} requests per combination and page size, walking pages`);
    await client.measure(L, { pageSize: '100' }, 200); // warm-up
    const results: Record<string, Record<string, Figures>> = {};
    for (const [name, p, params] of combos) {
      results[name] = {};
      for (const pageSize of ['10', '100']) {
        const mark = service.logged();
        const { deepestPage: _deepest, ...f } = await client.measure(p, { ...params, pageSize }, REQUESTS);
        Object.assign(f, serverFigures(await service.serverTimes(mark, f.requests)));
        served += f.requests;
        results[name][`pageSize${pageSize}`] = f;
        log(
          `  ${name.padEnd(38)} pageSize ${pageSize.padStart(3)}: p50 ${f.p50.toFixed(2)} ms  p99 ${f.p99.toFixed(2)} ms  max ${f.max.toFixed(2)} ms  (in service: p50 ${f.serverP50} p99 ${f.serverP99}; first page ${f.firstPage})`,
        );
      }
    }

    // Deep cursors: walk far down (the whole store for no filter), timing every page.
    const deep: Record<string, Figures & { deepestMessage: number }> = {};
    const deepWalks: [string, string, Record<string, string>, number][] = [
      ['none (whole store)', L, { pageSize: '100' }, Math.ceil(count / 100)],
      ['network', L, { network: 'mainnet', pageSize: '100' }, DEEP_PAGES],
      ['from(hot)', L, { from: hot, pageSize: '100' }, Math.ceil(DEEP_PAGES / 2)],
      ['address op(hot)', `/v1/teleporter/addresses/${hot}/messages`, { pageSize: '100' }, Math.ceil(DEEP_PAGES / 2)],
    ];
    for (const [name, p, params, pages] of deepWalks) {
      const mark = service.logged();
      const { deepestPage, ...f } = await client.measure(p, params, pages);
      Object.assign(f, serverFigures(await service.serverTimes(mark, f.requests)));
      served += f.requests;
      deep[name] = { ...f, deepestMessage: deepestPage * 100 };
      log(
        `  deep ${name.padEnd(33)} ${f.requests} pages, down to message ${deepestPage * 100}: p50 ${f.p50.toFixed(2)} ms  p99 ${f.p99.toFixed(2)} ms  max ${f.max.toFixed(2)} ms  (in service: p50 ${f.serverP50} p99 ${f.serverP99})`,
      );
    }

    const all = [...Object.values(results).flatMap((r) => Object.values(r)), ...Object.values(deep)];
    const worst = Math.max(...all.map((f) => f.p99));
    const worstInService = Math.max(...all.map((f) => f.serverP99 ?? 0));
    const pass = worst < TARGET_P99_MS;
    process.stdout.write(
      JSON.stringify({
        bench: 'service',
        messages: count,
        buildSeconds: buildSeconds === null ? null : round(buildSeconds),
        storeReadSeconds: storeReadSeconds === null ? null : round(storeReadSeconds),
        requestsPerCombination: REQUESTS,
        targetP99Ms: TARGET_P99_MS,
        worstP99Ms: worst,
        worstServerP99Ms: worstInService,
        combinationsUnderTarget: all.filter((f) => f.p99 < TARGET_P99_MS).length,
        measurements: all.length,
        pass,
        combinations: results,
        deepCursors: deep,
        requestsTimed: served,
        loadAverage1m: { start: round(loadAtStart), end: round(loadavg()[0]!) },
      }) + '\n',
    );
    if (!pass) {
      log(`bench: missed the target: worst round-trip p99 ${worst} ms, target < ${TARGET_P99_MS} ms`);
      process.exitCode = 1;
    }
  } finally {
    // Each one stops even if another fails: a child left running would keep this process (and the bench lock) alive.
    await Promise.allSettled([pool.close(), client.stop(), service.stop()]);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
