/**
 * Issue 41, property-based: one chain's node answers eth_getLogs, eth_getBlockByNumber,
 * eth_blockNumber, eth_getTransactionReceipt and eth_chainId with arbitrary values, or with a field of
 * its real answer replaced by one (huge and negative quantities, milliseconds, bad hex, wrong types,
 * nulls, any JSON), beside a healthy chain. Whatever it sends: the healthy chain keeps indexing every
 * message and stays ok, the fuzzed chain is never reported as an internal error of ours (every answer
 * is the node's fault, said in plain words), the process never stops, and memory stays bounded.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/local-service/index';
import { startLocalService } from '../../src/local-service/index';
import type { OwnNodeStatus } from '../../src/shared/own-nodes';
import { waitFor } from '../support/wait-for';
import { startTestChains, type TestChain } from './chains';
import { startHostileRpc, type HostileRpc } from './hostile-rpc';
import { sendMessage, TestRelayer } from './relayer';
import { chainConfig, recordWhen } from './rig';

let healthy: TestChain, fuzzed: TestChain;
let hostile: HostileRpc;
let service: RunningService;
let relayer: TestRelayer;

beforeAll(async () => {
  [healthy, fuzzed] = await startTestChains(32801, 32802);
  hostile = await startHostileRpc(fuzzed.node.url);
  relayer = new TestRelayer([fuzzed, healthy]); // reads and delivers through the real nodes
  service = await startLocalService({
    rate: 0,
    warmStore: false,
    log: () => undefined,
    ownNodes: {
      chains: [chainConfig(healthy, { name: 'Healthy' }), chainConfig(fuzzed, { name: 'Fuzzed', rpcUrl: hostile.url, wsUrl: fuzzed.node.wsUrl })],
      confirmations: 0,
      pollIntervalMs: 100,
      requestTimeoutMs: 1_000,
    },
  });
});
afterAll(async () => {
  await service?.close();
  await hostile?.close();
  await Promise.all([healthy?.node.stop(), fuzzed?.node.stop()]);
});

const statusOf = (c: TestChain): OwnNodeStatus => service.ownNodes()!.find((n) => n.blockchainId === c.blockchainId)!;

const hex = (v: bigint) => `0x${v.toString(16)}`;
/** What a node might put where a value belongs. */
const value = fc.oneof(
  fc.bigInt({ min: 0n, max: 2n ** 260n }).map(hex),
  fc.constantFrom(hex(1_795_897_196_118n), hex(2n ** 53n), hex(2n ** 64n), hex(2n ** 128n), '0x', '-0x5', '0xZZ', `0x${'f'.repeat(65)}`, '0x1', '0x0'),
  fc.constantFrom(null, true, 1_795_897_196_118, -1, 1.5, '', 'latest'),
  fc.string({ maxLength: 30 }),
  fc.jsonValue({ maxDepth: 2 }),
);
const METHODS = ['eth_getLogs', 'eth_getBlockByNumber', 'eth_blockNumber', 'eth_getTransactionReceipt', 'eth_chainId'] as const;
const FIELDS = [
  'timestamp',
  'number',
  'hash',
  'blockNumber',
  'blockHash',
  'logIndex',
  'blockTimestamp',
  'data',
  'topics',
  'gasUsed',
  'effectiveGasPrice',
  'from',
  'transactionHash',
  'address',
  'removed',
];

/** A block time no record may carry: milliseconds, centuries ahead, before 2020, past 2^53. */
const lyingTime = fc.oneof(
  fc.integer({ min: 1_600_000_000_000, max: 2_000_000_000_000 }),
  fc.integer({ min: 10_000_000_000, max: 2 ** 53 - 1 }),
  fc.integer({ min: 0, max: 1_577_836_799 }),
  fc.constantFrom(2 ** 53, 2 ** 64),
);

/** One lie: which method, whether its whole result or one field (of the result, or of each log) is replaced, and how often. */
const lie = fc.oneof(
  fc.record({ method: fc.constantFrom(...METHODS), field: fc.option(fc.constantFrom(...FIELDS), { nil: null }), value, every: fc.integer({ min: 1, max: 3 }) }),
  // The tester's finding, often: a block whose time is a lie, in the block or in the logs that carry it.
  fc.record({
    method: fc.constantFrom('eth_getLogs', 'eth_getBlockByNumber'),
    field: fc.constantFrom('blockTimestamp', 'timestamp'),
    value: lyingTime.map((t) => hex(BigInt(t))),
    every: fc.integer({ min: 1, max: 2 }),
  }),
);

type Lie = { method: string; field: string | null; value: unknown; every: number };

/** The hostile server's rewrite for a run's lies (each applied to every `every`-th answer of its method). */
function rewriter(lies: readonly Lie[]) {
  const seen = new Map<string, number>();
  return (method: string, _params: unknown[], result: unknown): unknown => {
    let out = result;
    for (const l of lies) {
      if (l.method !== method) continue;
      const n = (seen.get(method) ?? 0) + 1;
      seen.set(method, n);
      if (n % l.every !== 0) continue;
      if (l.field === null || typeof out !== 'object' || out === null) out = l.value;
      else if (Array.isArray(out)) out = out.map((x: unknown) => (typeof x === 'object' && x !== null ? { ...x, [l.field!]: l.value } : x));
      else out = { ...out, [l.field]: l.value };
    }
    return out;
  };
}

describe('own nodes: arbitrary JSON-RPC answers from one node', () => {
  it('never stop the healthy chain, are never blamed on us, and leave memory bounded', async () => {
    const baseRss = process.memoryUsage().rss;
    let peakRss = baseRss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(lie, { minLength: 1, maxLength: 3 }), async (lies) => {
          hostile.rewrite = rewriter(lies);
          const start = Date.now();
          // Something for the lying node's logs to be about; its new block wakes the chain's scan (the
          // WebSocket subscription goes to the real node), however long its backoff has grown.
          await sendMessage(fuzzed, healthy);
          const ours = await sendMessage(healthy, fuzzed);
          await relayer.deliverAll(); // the healthy chain now holds deliveries of what the lying node sent
          await recordWhen(service, ours.messageId, () => true, 15_000);
          const head = Number(await healthy.client.getBlockNumber());
          await waitFor(() => statusOf(healthy).state === 'ok' && (statusOf(healthy).indexedTo ?? -1) >= head, 15_000, 'the healthy chain read to its head');
          const f = await waitFor(
            () => ((statusOf(fuzzed).lastScanAt ?? 0) > start ? statusOf(fuzzed) : undefined),
            15_000,
            'the fuzzed chain read with the lies',
          );
          expect(f.state, f.message).not.toBe('internal_error');
          expect(f.message).not.toMatch(/bigint|cannot (convert|read)|undefined|unexpected token|syntaxerror|typeerror|too large to be represented/i);
          // The service's list still answers, with no time from the future.
          const res = await fetch(`${service.url}/v1/teleporter/messages?network=fuji&pageSize=100`);
          expect(res.status).toBe(200);
          const page = (await res.json()) as { messages: { sourceTransaction?: { timestamp: number }; destinationTransaction?: { timestamp: number } }[] };
          for (const m of page.messages)
            expect(Math.max(m.sourceTransaction?.timestamp ?? 0, m.destinationTransaction?.timestamp ?? 0)).toBeLessThan(Date.now() / 1000 + 86_400);
          hostile.rewrite = null;
        }),
        { numRuns: 40, endOnFailure: true },
      );
    } finally {
      clearInterval(sampler);
      hostile.rewrite = null;
    }
    expect(peakRss - baseRss).toBeLessThan(250 * 1024 * 1024);
  }, 120_000);
});
