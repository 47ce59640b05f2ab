/**
 * Three chains, one of them behind a hostile JSON-RPC server (test/own-node/hostile-rpc.ts) that, at
 * start and mid-run, answers not-JSON, oversized, endless, trickling, with another request's id, as
 * another chain, with a negative head, or with garbage logs among the real ones. The hostile chain
 * shows its state with a plain message (never a parser's text) and reads on when it can; the two
 * others keep every message exact; the process's memory stays bounded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/local-service/index';
import { startLocalService } from '../../src/local-service/index';
import type { ChainState, OwnNodeStatus } from '../../src/shared/own-nodes';
import { waitFor } from '../support/wait-for';
import { startTestChains, type TestChain } from './chains';
import { startHostileRpc, type HostileMode, type HostileRpc } from './hostile-rpc';
import { sendMessage, TestRelayer } from './relayer';
import { chainConfig, recordWhen } from './rig';

let a: TestChain, b: TestChain, c: TestChain;
let hostile: HostileRpc;
let service: RunningService;
let relayer: TestRelayer;
const logs: string[] = [];
/** Every a↔b message sent, and whether the relayer delivered it. */
const sent = new Map<string, { delivered: boolean }>();
let peakRss = 0;
let baseRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);

beforeAll(async () => {
  [a, b, c] = await startTestChains(31901, 31902, 31903);
  hostile = await startHostileRpc(c.node.url);
  hostile.mode = 'endless'; // hostile from the very start
  relayer = new TestRelayer([a, b]);
  baseRss = process.memoryUsage().rss;
  service = await startLocalService({
    rate: 0,
    warmStore: false,
    log: (l) => logs.push(l),
    ownNodes: {
      chains: [chainConfig(a, { name: 'Alpha' }), chainConfig(b, { name: 'Beta' }), chainConfig(c, { name: 'Hostile', rpcUrl: hostile.url })],
      confirmations: 0,
      pollIntervalMs: 100,
      requestTimeoutMs: 1_000,
    },
  });
});
afterAll(async () => {
  clearInterval(sampler);
  await service?.close();
  await hostile?.close();
  await Promise.all([a?.node.stop(), b?.node.stop(), c?.node.stop()]);
});

const statusOf = (chain: TestChain): OwnNodeStatus => service.ownNodes()!.find((n) => n.blockchainId === chain.blockchainId)!;
const stateIs = (chain: TestChain, state: ChainState, ms = 15_000) =>
  waitFor(() => (statusOf(chain).state === state ? statusOf(chain) : undefined), ms, `${statusOf(chain).name} to be ${state}`);

/** A round of a↔b traffic: two sends, one delivered. */
async function traffic(): Promise<void> {
  const x = await sendMessage(a, b);
  const y = await sendMessage(b, a);
  sent.set(x.messageId, { delivered: false });
  sent.set(y.messageId, { delivered: false });
  await relayer.deliverAll();
  for (const id of relayer.delivered.keys()) if (sent.has(id)) sent.set(id, { delivered: true });
}

/** Every a↔b message is stored once, with the status the chains give it, and nothing else from a or b. */
async function healthyChainsExact(): Promise<void> {
  for (const [id, { delivered }] of sent) await recordWhen(service, id, (r) => r.status === (delivered ? 'delivered' : 'pending'));
  const r = (await (await fetch(`${service.url}/v1/teleporter/messages?network=fuji&pageSize=100`)).json()) as {
    messages: { messageId: string; sourceBlockchainId: string }[];
  };
  const fromAB = r.messages.filter((m) => m.sourceBlockchainId === a.blockchainId || m.sourceBlockchainId === b.blockchainId);
  expect(fromAB.map((m) => `0x${m.messageId}`).sort()).toEqual([...sent.keys()].map((k) => k.toLowerCase()).sort());
  expect(statusOf(a).state).toBe('ok');
  expect(statusOf(b).state).toBe('ok');
}

const plain = (s: OwnNodeStatus) => expect(s.message).not.toMatch(/bigint|cannot (convert|read)|undefined|unexpected token|syntaxerror|typeerror/i);

describe('own nodes: a hostile node among healthy ones', () => {
  it('starts with a node whose answer never ends: the others are read, it is down with a plain message', async () => {
    await traffic();
    const st = await stateIs(c, 'down');
    expect(st.message).toMatch(/larger than 16 MB/);
    plain(st);
    await healthyChainsExact();
  });

  it.each<[HostileMode, ChainState, RegExp]>([
    ['not_json', 'down', /not JSON/],
    ['oversized', 'down', /larger than 16 MB/],
    ['trickling', 'slow', /did not answer in time/],
    ['wrong_id', 'down', /answered request .* when .* was asked/],
    ['negative_head', 'down', /eth_blockNumber with something that is not a number/],
    ['other_chain', 'wrong_chain', /reports EVM chain ID 1,/],
  ])('mid-run, a node that turns %s is %s, and comes back', async (mode, state, message) => {
    hostile.mode = 'honest';
    await stateIs(c, 'ok');
    const before = (await sendMessage(c, a)).messageId;
    await recordWhen(service, before, () => true);
    hostile.mode = mode;
    const st = await stateIs(c, state);
    expect(st.message).toMatch(message);
    plain(st);
    // Sent while the node misbehaves: not read from it, and read once it is honest again.
    const during = (await sendMessage(c, a)).messageId;
    await traffic();
    await healthyChainsExact();
    expect(service.store.get(during.slice(2).toLowerCase())).toBeUndefined();
    hostile.mode = 'honest';
    await stateIs(c, 'ok');
    await recordWhen(service, during, () => true);
  });

  it('notices a node that switches chain ID while connected, within ten poll intervals', async () => {
    hostile.mode = 'honest';
    await stateIs(c, 'ok');
    const calls = statusOf(c).rpcCalls;
    await waitFor(() => statusOf(c).rpcCalls > calls + 20, 10_000, 'the node to be read a few times');
    hostile.mode = 'other_chain';
    const t0 = Date.now();
    await stateIs(c, 'wrong_chain', 8_000);
    // Asked again every 10 poll intervals (1 s here); the margin is for a busy machine.
    expect(Date.now() - t0).toBeLessThan(10 * 100 + 3_000);
    hostile.mode = 'honest';
    await stateIs(c, 'ok');
  });

  it('skips garbage logs with a counted, named reason, and reads the real ones on', async () => {
    hostile.mode = 'garbage_logs';
    const ids = [(await sendMessage(c, a)).messageId, (await sendMessage(c, b)).messageId];
    for (const id of ids) await recordWhen(service, id, (r) => r.status === 'pending');
    await traffic();
    await healthyChainsExact();
    const st = statusOf(c);
    expect(st.state).toBe('ok');
    for (const reason of hostile.garbageServed.keys()) expect(st.skipped[reason as keyof typeof st.skipped] ?? 0, reason).toBeGreaterThan(0);
    expect(Object.keys(st.skipped).sort()).toEqual([...hostile.garbageServed.keys()].sort());
    expect(logs.some((l) => l.startsWith('Hostile: skipped') && l.includes('negative_number'))).toBe(true);
    // Each real message is there once, with its right nonce (no garbage copy replaced it).
    for (const id of ids) expect(service.store.get(id.slice(2).toLowerCase())?.sourceBlockchainId).toBe(c.blockchainId);
    hostile.mode = 'honest';
  });

  it('keeps the process memory bounded through it all', () => {
    // Endless and 20 MB answers are cut at 16 MB; the peak stays far below what reading them whole would take.
    expect(peakRss - baseRss).toBeLessThan(250 * 1024 * 1024);
  });
});
