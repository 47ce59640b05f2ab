/**
 * Nodes that misbehave, through a JSON-RPC proxy in front of real anvil chains: a refused log range
 * (the indexer reads smaller ones), a node that is down, rate limits, is slow, has pruned the history
 * asked for, or lies about its chain ID. Each gives its own status in /_local/info; reading resumes
 * from the checkpoint with nothing lost or doubled.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/local-service/index';
import type { OwnNodeStatus } from '../../src/shared/own-nodes';
import { waitFor } from '../support/wait-for';
import { startTestChains, type TestChain } from './chains';
import { sendMessage } from './relayer';
import { chainConfig, recordWhen } from './rig';
import { startRpcProxy, type RpcProxy } from './rpc-proxy';
import { startLocalService } from '../../src/local-service/index';

let a: TestChain, b: TestChain;
let pa: RpcProxy, pb: RpcProxy;
let service: RunningService | null = null;
const logs: string[] = [];

beforeAll(async () => {
  [a, b] = await startTestChains(31301, 31302);
  [pa, pb] = await Promise.all([startRpcProxy(a.node.url), startRpcProxy(b.node.url)]);
});
afterEach(async () => {
  await service?.close();
  service = null;
  pa.faults = {};
  pb.faults = {};
});
afterAll(async () => {
  await Promise.all([pa?.close(), pb?.close()]);
  await Promise.all([a?.node.stop(), b?.node.stop()]);
});

async function start(over: { requestTimeoutMs?: number } = {}): Promise<RunningService> {
  service = await startLocalService({
    rate: 0,
    warmStore: false,
    log: (l) => logs.push(l),
    ownNodes: {
      chains: [chainConfig(a, { rpcUrl: pa.url }), chainConfig(b, { rpcUrl: pb.url })],
      confirmations: 0,
      pollIntervalMs: 100,
      ...over,
    },
  });
  return service;
}

const statusOf = (s: RunningService, chain: TestChain): OwnNodeStatus => s.ownNodes()!.find((n) => n.blockchainId === chain.blockchainId)!;
const stateIs = (s: RunningService, chain: TestChain, state: OwnNodeStatus['state']) =>
  waitFor(() => (statusOf(s, chain).state === state ? statusOf(s, chain) : undefined), 20_000, `${chain.chainId} to be ${state}`);

/** Every message the chains hold is stored once, in the state the chains give it. */
async function allIndexed(s: RunningService, sent: readonly string[]): Promise<void> {
  for (const id of sent) await recordWhen(s, id, () => true);
}

describe('own nodes: faults', () => {
  it('reads smaller log ranges when the node refuses a range, and finds every message', async () => {
    pa.faults = { maxRange: 3 };
    const sent: string[] = [];
    for (let i = 0; i < 4; i++) {
      sent.push((await sendMessage(a, b)).messageId);
      await a.client.request({ method: 'anvil_mine' as never, params: ['0x7'] as never });
    }
    const s = await start();
    await allIndexed(s, sent);
    expect(pa.refusedRanges).toBeGreaterThan(0);
    expect(statusOf(s, a).span).toBeLessThanOrEqual(3);
    await stateIs(s, a, 'ok');
    expect(logs.some((l) => l.includes('refused a log range'))).toBe(true);
  });

  it('says a node is down, and resumes from its checkpoint when it is back', async () => {
    const s = await start();
    const first = (await sendMessage(a, b)).messageId;
    await recordWhen(s, first, () => true);
    pa.faults = { down: true };
    const st = await stateIs(s, a, 'down');
    expect(st.message).toMatch(/cannot be reached|failed/);
    const during = [(await sendMessage(a, b)).messageId, (await sendMessage(a, b)).messageId];
    expect(statusOf(s, b).state).toBe('ok'); // the other chain goes on
    pa.faults = {};
    await allIndexed(s, during);
    expect(s.store.count()).toBe(new Set([...(await fuji(s))]).size);
  });

  it('says a node rate limits', async () => {
    const s = await start();
    await stateIs(s, a, 'ok');
    pa.faults = { rateLimited: true };
    expect((await stateIs(s, a, 'rate_limited')).message).toMatch(/rate limiting/);
    pa.faults = {};
    await stateIs(s, a, 'ok');
  });

  it('says a node is slow when it does not answer in time', async () => {
    const s = await start({ requestTimeoutMs: 300 });
    await stateIs(s, a, 'ok');
    pa.faults = { delayMs: 1_000 };
    expect((await stateIs(s, a, 'slow')).message).toMatch(/did not answer in time/);
    pa.faults = {};
    await stateIs(s, a, 'ok');
  });

  it('says a node has pruned the history asked for', async () => {
    pa.faults = { prunedBelow: 1_000_000 };
    const s = await start();
    expect((await stateIs(s, a, 'pruned')).message).toMatch(/archive node|start block/);
    pa.faults = {};
    await stateIs(s, a, 'ok');
  });

  it('reads nothing from a node that lies about its chain ID', async () => {
    const s = await start();
    await stateIs(s, a, 'ok');
    pa.faults = { down: true };
    await stateIs(s, a, 'down');
    pa.faults = { chainId: 1 }; // "back", but another chain
    const st = await stateIs(s, a, 'wrong_chain');
    expect(st.message).toContain('reports EVM chain ID 1');
    const sent = (await sendMessage(a, b)).messageId;
    await new Promise((r) => setTimeout(r, 500)); // several poll intervals (100 ms) pass
    expect(s.store.get(sent.slice(2))).toBeUndefined();
    pa.faults = {};
    await recordWhen(s, sent, () => true);
  });

  it('refuses a configured blockchain ID the messenger does not compute message IDs with', async () => {
    await sendMessage(a, b);
    service = await startLocalService({
      rate: 0,
      warmStore: false,
      log: () => undefined,
      ownNodes: { chains: [chainConfig(a, { blockchainId: b.blockchainId })], confirmations: 0, pollIntervalMs: 100 },
    });
    const st = await stateIs(service, { ...a, blockchainId: b.blockchainId }, 'wrong_chain');
    expect(st.message).toMatch(/do not match blockchain ID/);
    expect(service.store.count()).toBe(0);
  });
});

async function fuji(s: RunningService): Promise<string[]> {
  const r = (await (await fetch(`${s.url}/v1/teleporter/messages?network=fuji&pageSize=100`)).json()) as { messages: { messageId: string }[] };
  return r.messages.map((m) => m.messageId);
}
