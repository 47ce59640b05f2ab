/**
 * `npm run bench:own-node`: "your own nodes" under load. Two anvil chains with the test messenger, a
 * block every BENCH_BLOCK_MS (default 250), messages sent both ways at BENCH_RATE (default 20) per
 * second for BENCH_SECONDS (default 600), the test relayer delivering them, several at once (receipts
 * ride back on the messages the other way), and the local service in own-nodes mode reading both
 * chains over JSON-RPC. Ground truth is what was sent and delivered on chain; every record change the
 * service writes is compared with it.
 *
 * Reports (one JSON line): missed (a sent message never stored, or a delivered one never shown
 * delivered), duplicate transitions (a message shown again in a state it had already left), detection
 * latency of sends and deliveries (p50/p95/max against one poll interval plus the confirmation depth's
 * time, and against a naive log poll of the same interval in this process,
 * bench/own-node-naive-reader.ts), JSON-RPC calls per minute and the peak RSS of the monitoring side
 * alone: the service and a core watching the senders each run bundled in a child process of their own
 * as in the app (bench/own-node-service-child.ts, own-node-core-child.ts), apart from solc, the senders
 * and the relayer; BENCH_WITH_CORE=0 leaves the core out. The keyless caller's spend (the core's) is
 * judged by what the service counted against the published unauthenticated plan (bench/judge.ts).
 * Exits 1 on a miss or a duplicate. Everything runs on 127.0.0.1. Proof it fails (test/bench/benches-fail.test.ts):
 * BENCH_INJECT_MISSES / _DUPLICATES drop or repeat the core's transitions, BENCH_INJECT_OVERSPEND calls as the core.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OwnNodeStatus } from '../src/shared/own-nodes';
import { startTestChain, type TestChain } from '../test/own-node/chains';
import { InFlight } from '../test/own-node/in-flight';
import { sendMessage, TestRelayer } from '../test/own-node/relayer';
import { chainConfig } from '../test/own-node/rig';
import { bundleChild } from './bundle-child';
import { childCall } from './child-call';
import { startNaiveReader } from './own-node-naive-reader';
import { chainTruth } from './own-node-chain-truth';
import { judgeCore } from './own-node-core-judge';
import { injected, overspend, tamper } from './inject';
import type { SpendVerdict } from './judge';
import { envNumber, judgeTargets, report } from './targets';
import { DEFAULT_SETTINGS } from '../src/shared/contract';

const RATE = Number(process.env.BENCH_RATE ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 600);
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 1000);
const CONFIRMATIONS = Number(process.env.BENCH_CONFIRMATIONS ?? 1);
// Blocks every BLOCK_MS, as a real chain makes them (0: anvil's automine, one block per transaction).
const BLOCK_MS = Number(process.env.BENCH_BLOCK_MS ?? 250);
const SETTLE_MS = 60_000;
const DETECT_MS = 15_000;
const IN_FLIGHT = 8;
// The relayer keeps up with both directions' sends when it too has several deliveries open at once.
const RELAY_IN_FLIGHT = 16;
/** The core's poll interval: the app's default unless BENCH_CORE_INTERVAL_S says otherwise. */
const CORE_INTERVAL_S = envNumber('BENCH_CORE_INTERVAL_S', DEFAULT_SETTINGS.pollIntervalSeconds);
/** Test hook: the core's transitions, some dropped or repeated, and calls made as the core (the bench must then fail). */
const INJECT = injected();

const mb = (n: number) => Math.round(n / 1048576);
const pct = (xs: number[], p: number) => {
  if (!xs.length) return null;
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** Chains started: stopped if the bench fails, so a failed start (a slow anvil) never leaves a node running. */
const chains: TestChain[] = [];

/** Starts both chains; if one fails to start, the other is stopped once it is up, and the error thrown. */
async function startChains(ids: [number, number], blockTime: number | undefined): Promise<[TestChain, TestChain]> {
  const results = await Promise.allSettled(ids.map((chainId) => startTestChain({ chainId, blockTime })));
  for (const r of results) if (r.status === 'fulfilled') chains.push(r.value);
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  return [chains[0]!, chains[1]!];
}

/** The monitoring side, bundled as the app ships it (no TypeScript loader in its memory). */
async function startChild(work: string, name: string): Promise<ChildProcess> {
  const childJs = join(work, `${name}.cjs`);
  await bundleChild(join(__dirname, `${name}.ts`), childJs, ['node:sqlite', '@napi-rs/keyring']);
  const child = fork(childJs, [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [], // not this process's TypeScript loader
    env: { ...process.env, NODE_PATH: join(__dirname, '..', 'node_modules') },
  });
  await new Promise<void>((r) => child.once('message', () => r()));
  return child;
}

async function main(): Promise<void> {
  const wallStart = Date.now();
  const loadAtStart = loadavg()[0]!;
  const work = mkdtempSync(join(tmpdir(), 'tw-own-node-bench-'));
  const blockTime = BLOCK_MS > 0 ? BLOCK_MS / 1000 : undefined;
  const [a, b] = await startChains([32001, 32002], blockTime);
  const child = await startChild(work, 'own-node-service-child');
  const coreChild = process.env.BENCH_WITH_CORE === '0' ? null : await startChild(work, 'own-node-core-child');
  const ownNodes = { chains: [chainConfig(a), chainConfig(b)], confirmations: CONFIRMATIONS, pollIntervalMs: POLL_MS };
  const watch = [a.wallet('sender').account.address];

  // Ground truth: when each message was sent and delivered (wall ms, after its transaction was mined).
  const sentAt = new Map<string, number>();
  const deliveredAt = new Map<string, number>();
  // What the service showed: the first time each state was written, and every transition.
  const seenAt = new Map<string, number>();
  const shownDeliveredAt = new Map<string, number>();
  const states = new Map<string, string[]>();
  let duplicates = 0;
  child.on('message', (m: { type: string; t?: number; items?: [string, string, boolean][] }) => {
    if (m.type !== 'changes') return;
    const now = m.t!; // when the child wrote it
    for (const [id, status, receipt] of m.items!) {
      const state = `${status}|${String(receipt)}`;
      const seen = states.get(id) ?? [];
      if (seen.at(-1) === state) continue; // the same state rewritten (an unrelated event of the message)
      if (seen.includes(state)) duplicates++;
      seen.push(state);
      states.set(id, seen);
      if (!seenAt.has(id)) seenAt.set(id, now);
      if (status === 'delivered' && !shownDeliveredAt.has(id)) shownDeliveredAt.set(id, now);
    }
  });
  const { url } = await childCall(child, { type: 'start', dbPath: join(work, 'own-nodes.sqlite'), ownNodes }, 'ready');
  // The core's transitions as it reports them (wall ms, its clock), judged against the chains' logs at the end.
  const coreSaw: { id: string; kind: string; at: number }[] = [];
  coreChild?.on('message', (m: { type: string; items?: [string, string, number][] }) => {
    if (m.type === 'transitions') for (const [id, kind, at] of m.items!) coreSaw.push({ id: id.toLowerCase().replace(/^0x/, ''), kind, at });
  });
  const coreInterval = CORE_INTERVAL_S === DEFAULT_SETTINGS.pollIntervalSeconds ? null : CORE_INTERVAL_S;
  if (coreChild) await childCall(coreChild, { type: 'start', url, dataDir: join(work, 'core'), watch, pollIntervalSeconds: coreInterval }, 'ready');

  const naive = startNaiveReader([a, b], POLL_MS);
  const relayer = new TestRelayer([a, b], { inFlight: RELAY_IN_FLIGHT });
  const onDelivered = relayer.delivered.set.bind(relayer.delivered);
  relayer.delivered.set = (k, v) => {
    if (!deliveredAt.has(k.slice(2))) deliveredAt.set(k.slice(2), Date.now());
    return onDelivered(k, v);
  };
  relayer.start(100);

  const started = Date.now();
  const end = started + SECONDS * 1000;
  // Each direction keeps up to IN_FLIGHT sends open (a nonce manager numbers them), so the rate holds
  // while a send waits to be mined; a send is counted as sent once mined.
  const sender = async (from: TestChain, to: TestChain, rate: number) => {
    const wallet = from.managedWallet('sender');
    const open = new InFlight(IN_FLIGHT);
    let n = 0;
    while (Date.now() < end) {
      const due = started + (n * 1000) / rate;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      await open.add(() => sendMessage(from, to, { wallet }).then((s) => void sentAt.set(s.messageId.slice(2), Date.now())));
      n++;
    }
    await open.drain();
  };
  await Promise.all([sender(a, b, RATE / 2), sender(b, a, RATE / 2)]);
  const sendSeconds = (Date.now() - started) / 1000;
  // Settle: every sent message stored, every delivery shown (the relayer keeps delivering meanwhile).
  // Automine makes blocks only for transactions: then the last ones get their confirmations here.
  const mining = blockTime
    ? undefined
    : setInterval(() => {
        for (const c of [a, b]) void c.client.request({ method: 'anvil_mine' as never, params: ['0x1'] as never }).catch(() => undefined);
      }, 250);
  const settleEnd = Date.now() + SETTLE_MS;
  const missing = () => [...sentAt.keys()].filter((id) => !seenAt.has(id)).length + [...deliveredAt.keys()].filter((id) => !shownDeliveredAt.has(id)).length;
  while (Date.now() < settleEnd && (missing() > 0 || relayer.delivered.size < sentAt.size)) await new Promise((r) => setTimeout(r, 200));
  await relayer.stop();
  // The relayer's last delivery can land after the settle minute (a backlog under load): its detection gets a window of its own.
  const detectEnd = Math.max(settleEnd, Date.now() + DETECT_MS);
  while (Date.now() < detectEnd && missing() > 0) await new Promise((r) => setTimeout(r, 200));
  clearInterval(mining);
  // What the chains did, from their logs; the core gets up to 3 of its intervals to report the last of it.
  const truth = coreChild ? await chainTruth([a, b], watch, sentAt, deliveredAt) : null;
  if (truth) {
    const reported = () => new Set(coreSaw.map((d) => `${d.id}:${d.kind}`));
    const coreEnd = Date.now() + 3 * CORE_INTERVAL_S * 1000;
    while (Date.now() < coreEnd && [...truth.keys()].some((k) => !reported().has(k))) await new Promise((r) => setTimeout(r, 1000));
  }
  const naiveCalls = await naive.stop();
  await overspend(url as string, INJECT.overspend);

  const minutes = (Date.now() - started) / 60_000;
  type Closed = { statuses: OwnNodeStatus[]; stored: number; transitions: number; peakRss: number; spend: SpendVerdict };
  const coreClosed = coreChild ? ((await childCall(coreChild, { type: 'close' }, 'closed')) as Closed) : null;
  const closed = (await childCall(child, { type: 'close' }, 'closed')) as Closed;
  const statuses = closed.statuses;
  const rpcCalls = statuses.reduce((s, x) => s + x.rpcCalls, 0);
  // The confirmation depth's time is that many block intervals, as the chains made them (measured, not assumed).
  const heads = await Promise.all([a, b].map((c) => c.client.getBlockNumber()));
  const blockMs = (Date.now() - started) / Math.max(1, Math.min(...heads.map(Number)));
  const targetMs = POLL_MS + CONFIRMATIONS * blockMs + 250; // + one scan's own reading time
  const missed = missing();
  const latencies = (truth: Map<string, number>, seen: Map<string, number>) =>
    [...truth].filter(([id]) => seen.has(id)).map(([id, t]) => Math.max(0, seen.get(id)! - t));
  const sendLatency = latencies(sentAt, seenAt);
  const deliveryLatency = latencies(deliveredAt, shownDeliveredAt);
  const naiveSend = latencies(sentAt, naive.sentSeenAt);
  const naiveDelivery = latencies(deliveredAt, naive.deliveredSeenAt);
  const baseline = {
    what: 'naive log poll: each chain every poll interval, no confirmations, no reorg check, no receipts',
    missed: sentAt.size - naiveSend.length + deliveredAt.size - naiveDelivery.length,
    detectionMs: { sendP50: pct(naiveSend, 50), sendP95: pct(naiveSend, 95), deliveryP50: pct(naiveDelivery, 50), deliveryP95: pct(naiveDelivery, 95) },
    rpcCallsPerMinute: Math.round(naiveCalls / minutes),
  };
  const core = truth && judgeCore(truth, tamper(coreSaw, INJECT), { intervalMs: CORE_INTERVAL_S * 1000, serviceTargetMs: targetMs, injected: INJECT });
  const result = {
    bench: 'own-node',
    rate: RATE,
    seconds: Math.round(sendSeconds),
    sent: sentAt.size,
    delivered: deliveredAt.size,
    stored: closed.stored,
    missed,
    firstMissed: [
      ...[...sentAt.keys()].filter((id) => !seenAt.has(id)).map((id) => `send ${id}`),
      ...[...deliveredAt.keys()].filter((id) => !shownDeliveredAt.has(id)).map((id) => `delivery ${id}`),
    ].slice(0, 5),
    duplicateTransitions: duplicates,
    detectionMs: {
      sendP50: pct(sendLatency, 50),
      sendP95: pct(sendLatency, 95),
      sendMax: pct(sendLatency, 100),
      deliveryP50: pct(deliveryLatency, 50),
      deliveryP95: pct(deliveryLatency, 95),
      deliveryMax: pct(deliveryLatency, 100),
      targetP95: Math.round(targetMs),
    },
    baseline,
    blockMs: Math.round(blockMs),
    rpcCallsPerMinute: Math.round(rpcCalls / minutes),
    peakRssMb: { service: mb(closed.peakRss), core: coreClosed ? mb(coreClosed.peakRss) : null },
    coreTransitions: coreClosed?.transitions ?? null,
    core: core?.figures ?? null,
    spend: closed.spend,
    chains: statuses.map((s) => ({ state: s.state, span: s.span, reorgs: s.reorgs, rpcCalls: s.rpcCalls })),
    loadAverage: { start: loadAtStart, end: loadavg()[0]! },
    wallSeconds: Math.round((Date.now() - wallStart) / 1000),
  };
  await Promise.all([a.node.stop(), b.node.stop()]);
  rmSync(work, { recursive: true, force: true });
  const reached = sentAt.size / sendSeconds;
  const gap = (ours: number | null, theirs: number | null) => (ours === null || theirs === null ? null : ours - theirs);
  report(
    { ...result, rateReached: Math.round(reached * 10) / 10 },
    judgeTargets({
      missed: [missed, 0],
      duplicateTransitions: [duplicates, 0],
      sendP95Ms: [result.detectionMs.sendP95, targetMs],
      deliveryP95Ms: [result.detectionMs.deliveryP95, targetMs],
      // Records (confirmed, reorg-safe, with sender, cost and time) against bare sightings: they may
      // cost the confirmation depth's time and one scan's reading more, nothing else.
      sendP95OverBaselineMs: [gap(result.detectionMs.sendP95, baseline.detectionMs.sendP95), CONFIRMATIONS * blockMs + 250],
      deliveryP95OverBaselineMs: [gap(result.detectionMs.deliveryP95, baseline.detectionMs.deliveryP95), CONFIRMATIONS * blockMs + 250],
      // The rate asked for, give or take 5 %: sends wait on the chains, so a loaded machine sends fewer.
      rateShortfall: [Math.max(0, 1 - reached / RATE), 0.05],
      serviceRssMb: [mb(closed.peakRss), 149.9],
      ...(coreClosed ? { coreRssMb: [mb(coreClosed.peakRss), 149.9] as [number, number] } : {}),
      ...(core?.targets ?? {}),
      // The service enforces the public CU limits; its count of the keyless caller (the core) judged on the published plan.
      spendOverPlan: [closed.spend.over === null ? 0 : 1, 0],
    }),
  );
}

main().catch(async (e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  await Promise.allSettled(chains.map((c) => c.node.stop()));
  process.exit(1);
});
