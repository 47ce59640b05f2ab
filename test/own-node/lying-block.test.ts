/**
 * Issue 41, "one answer can blind it": one own node mines a block with a far-future timestamp (a
 * millisecond value, 1795897196118: anvil's evm_setNextBlockTimestamp, every later block after it)
 * beside a healthy chain. What that node sends in those blocks is skipped with a counted, named reason
 * (timestamp_out_of_range), logged once; the healthy chain keeps indexing and stays ok; no chain is
 * blamed for a fault of ours ("not the JSON-RPC a node sends"); the service's lists keep answering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/local-service/index';
import { startLocalService } from '../../src/local-service/index';
import type { OwnNodeStatus } from '../../src/shared/own-nodes';
import { waitFor } from '../support/wait-for';
import { startTestChains, type TestChain } from './chains';
import { sendMessage, TestRelayer } from './relayer';
import { chainConfig, recordWhen } from './rig';

/** A block time in milliseconds where seconds belong: the year 58,860. */
const LYING_TIMESTAMP = 1_795_897_196_118;

let lying: TestChain, healthy: TestChain;
let service: RunningService;
let relayer: TestRelayer;
const logs: string[] = [];

beforeAll(async () => {
  [lying, healthy] = await startTestChains(32501, 32502);
  relayer = new TestRelayer([lying, healthy]);
  service = await startLocalService({
    rate: 0,
    warmStore: false,
    log: (l) => logs.push(l),
    ownNodes: {
      chains: [chainConfig(lying, { name: 'Liar' }), chainConfig(healthy, { name: 'Honest' })],
      confirmations: 0,
      pollIntervalMs: 100,
      requestTimeoutMs: 2_000,
    },
  });
});
afterAll(async () => {
  await service?.close();
  await Promise.all([lying?.node.stop(), healthy?.node.stop()]);
});

const statusOf = (c: TestChain): OwnNodeStatus => service.ownNodes()!.find((n) => n.blockchainId === c.blockchainId)!;

/** The chain's node has been read up to its current head, and the chain is ok. */
async function readToHead(c: TestChain): Promise<OwnNodeStatus> {
  const head = Number(await c.client.getBlockNumber());
  return waitFor(
    () => {
      const s = statusOf(c);
      return s.state === 'ok' && (s.indexedTo ?? -1) >= head ? s : undefined;
    },
    20_000,
    `${statusOf(c).name} read to block ${head} (now ${statusOf(c).state}: ${statusOf(c).message}, read to ${statusOf(c).indexedTo})`,
  );
}

describe('own nodes: a block with a far-future timestamp', () => {
  it('is skipped on its chain alone, counted and logged once; the healthy chain reads on', async () => {
    const before = await sendMessage(lying, healthy);
    await relayer.deliverAll();
    await recordWhen(service, before.messageId, (r) => r.status === 'delivered');

    await lying.client.request({ method: 'evm_setNextBlockTimestamp' as never, params: [LYING_TIMESTAMP] as never });
    const liedAbout = await sendMessage(lying, healthy); // sent in the lying block
    await relayer.deliverAll(); // delivered on the healthy chain, in a block with an honest time
    const fromHealthy = await sendMessage(healthy, lying); // its delivery lands in a lying block
    await relayer.deliverAll();
    const later = await sendMessage(healthy, lying);

    const honest = await readToHead(healthy);
    await readToHead(lying);
    // The healthy chain's messages are all there; what only the lying blocks say is not.
    await recordWhen(service, later.messageId, (r) => r.status === 'pending');
    const back = await recordWhen(service, fromHealthy.messageId, () => true);
    expect(back.status).toBe('pending');
    const seenOnHealthy = await recordWhen(service, liedAbout.messageId, () => true);
    expect(seenOnHealthy.sourceTransaction).toBeUndefined();
    expect((seenOnHealthy.destinationTransaction as { timestamp: number }).timestamp).toBeLessThan(Date.now() / 1000 + 60);

    const liar = statusOf(lying);
    expect(liar.skipped.timestamp_out_of_range ?? 0).toBeGreaterThanOrEqual(2);
    expect(honest.skipped).toEqual({});
    for (const s of [liar, honest]) expect(s.message).not.toMatch(/not the JSON-RPC/);
    expect(logs.filter((l) => l.includes('timestamp_out_of_range'))).toHaveLength(1);
    expect(logs.filter((l) => l.includes('timestamp_out_of_range'))[0]).toMatch(/^Liar: /);

    // The service's list still answers, newest first, with no record from the future.
    const res = await fetch(`${service.url}/v1/teleporter/messages?network=fuji&pageSize=100`);
    expect(res.status).toBe(200);
    const page = (await res.json()) as { messages: { sourceTransaction?: { timestamp: number } }[] };
    expect(page.messages.length).toBeGreaterThanOrEqual(4);
    for (const m of page.messages) expect(m.sourceTransaction?.timestamp ?? 0).toBeLessThan(Date.now() / 1000 + 60);
  });
});
