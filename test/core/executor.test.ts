/**
 * The executor runs planned steps against the real local service: a scan stops where its stop rule
 * says, baselines are silent and recorded, the cycle budget ends a plan, the firehose sets the
 * network's cursor, and the cycle hooks see every message read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Transition } from '../../src/shared/contract';
import { messageTimestamp, type TeleporterMessage } from '../../src/shared/messages';
import type { DataApiClient } from '../../src/core/data-api/client';
import { createLogger } from '../../src/core/log/logger';
import { runNetworkPlan, type CycleHook, type Execution } from '../../src/core/poller/executor';
import { MAX_LATENESS_S } from '../../src/shared/policy';
import { NetworkStates } from '../../src/core/poller/network-state';
import { planNetwork } from '../../src/core/poller/planner';
import { NEED_MAX_PAGES } from '../../src/shared/policy';
import { type NetworkPlan, type NetworkPlanInput } from '../../src/core/poller/plan-types';
import { CycleBudget } from '../../src/core/poller/scan';
import { engineOnService, type EngineOnService } from './engine-on-service';
import { randomId, type EngineRig } from './helpers';
import { planInputAt } from '../support/plan-input';

let on: EngineOnService | null = null;
let rig: EngineRig | null = null;
afterEach(async () => {
  await on?.close();
  on = rig = null;
});

async function setup() {
  on = await engineOnService({ preload: 3000, seed: 5 });
  const { svc, client } = on;
  const r = (rig = on.rig);
  const read: TeleporterMessage[] = [];
  const transitions: Transition[] = [];
  let reloads = 0;
  r.store.watches.onChange(() => reloads++); // the watcher index follows these
  const states = new NetworkStates(r.store.pollState);
  const execution = (cycle: CycleBudget, hooks: CycleHook[] = []): Execution => ({
    client,
    cycle,
    state: states.get('mainnet', svc.url),
    states,
    engine: r.engine,
    messages: r.store.messages,
    watches: r.store.watches,
    logger: createLogger(),
    onTransitions: (t) => transitions.push(...t),
    hooks: [{ messages: (_net, m) => read.push(...m) }, ...hooks],
    nowMs: r.clock.now(),
  });
  return { svc, client, read, transitions, reloads: () => reloads, execution };
}

const input = (o: Partial<NetworkPlanInput>): NetworkPlanInput => planInputAt(rig!.clock.now(), o);

/** The first pages of an address, read directly. */
async function addressPages(client: DataApiClient, address: string, count: number): Promise<TeleporterMessage[][]> {
  const pages: TeleporterMessage[][] = [];
  let token: string | undefined;
  while (pages.length < count) {
    const r = await client.listAddressMessages(address, { pageSize: 100, ...(token ? { pageToken: token } : {}) });
    if (!r.ok) throw new Error(r.error.message);
    pages.push(r.value.messages);
    token = r.value.nextPageToken;
    if (!token) throw new Error('the address has too few pages for this test');
  }
  return pages;
}

/** A plan that asks a live address for a message the list no longer has (say, dropped), as old as its third page. */
async function pastThirdPage(client: DataApiClient, address: string): Promise<{ plan: NetworkPlan; pages: TeleporterMessage[][] }> {
  const pages = await addressPages(client, address, 3);
  const neededTs = Math.max(...pages[2]!.map((m) => messageTimestamp(m) ?? 0));
  const plan = planNetwork(input({ addresses: [{ key: address, baselineDone: true }], due: [{ messageId: randomId(), ts: neededTs, address, feeds: [] }] }));
  return { plan, pages };
}

describe('runNetworkPlan', () => {
  it('pages an address until it passes the oldest message it looks for, and the hooks see every message read', async () => {
    const t = await setup();
    const address = t.svc.simulator.addresses[0]!;
    rig!.watch(address);
    // The scan gives up once the pages are older than the message.
    const { plan, pages } = await pastThirdPage(t.client, address);
    expect(plan.discovery?.mode).toBe('per-address');
    const budgets: number[] = [];
    const cycle = new CycleBudget(100);
    const err = await runNetworkPlan(plan, t.execution(cycle, [{ afterNetwork: async (x) => (budgets.push(x.cycle.left), null) }]));
    expect(err).toBeNull();
    expect(cycle.used).toBe(3);
    expect(t.read.map((m) => m.messageId)).toEqual(pages.flat().map((m) => m.messageId));
    expect(budgets).toEqual([97]);
  });

  it('takes a baseline silently, records it and announces the watch change once', async () => {
    const t = await setup();
    const address = t.svc.simulator.addresses[1]!;
    rig!.watch(address, { baselineDone: false });
    const changesBefore = t.reloads();
    const plan = planNetwork(input({ addresses: [{ key: address, baselineDone: false }] }));
    expect(await runNetworkPlan(plan, t.execution(new CycleBudget(100)))).toBeNull();
    expect(t.read.length).toBeGreaterThan(0);
    expect(t.transitions).toEqual([]);
    expect(rig!.store.watches.watcherInfos().addresses).toEqual([expect.objectContaining({ key: address, baselineDone: true })]);
    expect(t.reloads() - changesBefore).toBe(1);
    expect(rig!.index.get(address)?.baselineDone).toBe(true);
  });

  it('ends the plan when the cycle budget runs out, and no hook runs after it', async () => {
    const t = await setup();
    const address = t.svc.simulator.addresses[0]!;
    rig!.watch(address);
    const { plan } = await pastThirdPage(t.client, address);
    let after = 0;
    const before = t.svc.requestCount();
    const err = await runNetworkPlan(plan, t.execution(new CycleBudget(2), [{ afterNetwork: async () => (after++, null) }]));
    expect(err).toMatchObject({ kind: 'rate_limited', message: expect.stringContaining('budget for this poll cycle') });
    expect(t.svc.requestCount() - before).toBe(2);
    expect(after).toBe(0);
  });

  it('reads the firehose for many addresses and keeps its cursor in the network state', async () => {
    const t = await setup();
    const addresses = t.svc.simulator.addresses.slice(0, 5);
    for (const a of addresses) rig!.watch(a);
    const plan = planNetwork(input({ addresses: addresses.map((key) => ({ key, baselineDone: true })) }));
    const x = t.execution(new CycleBudget(100));
    expect(await runNetworkPlan(plan, x)).toBeNull();
    const top = await t.client.listMessages({ pageSize: 100 });
    if (!top.ok) throw new Error(top.error.message);
    expect(x.state.mode).toBe('firehose');
    expect(x.state.head).toEqual({ ts: Math.max(...top.value.messages.map((m) => messageTimestamp(m) ?? 0)), at: x.nowMs });
    expect(x.state.ratePerSec).toBeGreaterThan(0);
    expect(t.read.map((m) => m.messageId)).toEqual(top.value.messages.map((m) => m.messageId));
    // Written through: a new set of states over the same store starts from it.
    expect(new NetworkStates(rig!.store.pollState).get('mainnet', t.svc.url).head).toEqual(x.state.head);
  });

  it("per address: every list's scan first, then a list's sweep with what the cycle has left, resumed next cycle where the budget stopped it", async () => {
    const t = await setup();
    const [a, b] = [t.svc.simulator.addresses[0]!, t.svc.simulator.addresses[1]!];
    rig!.watch(a);
    rig!.watch(b);
    const lists = [
      { key: a, baselineDone: true },
      { key: b, baselineDone: true },
    ];
    const floorTs = Math.floor(rig!.clock.now() / 1000) - MAX_LATENESS_S;
    const pages = await addressPages(t.client, a, 3);
    expect(Math.min(...pages[1]!.map((m) => messageTimestamp(m) ?? 0))).toBeGreaterThan(floorTs); // a's sweep takes 3 pages or more
    // A first cycle reads both lists (their news); no sweep is asked for.
    const state = t.execution(new CycleBudget(1000)).state;
    expect(await runNetworkPlan(planNetwork(input({ addresses: lists })), t.execution(new CycleBudget(1000)))).toBeNull();
    expect([...state.readAt.keys()].sort()).toEqual([a, b].sort());
    // Then a's sweep is due: the two scans (a page each, nothing new) and one page of the sweep fit the budget.
    await rig!.clock.advance(10_000);
    const plan = planNetwork(input({ addresses: lists, lastDiscoveryAt: rig!.clock.now() - 10_000, readAt: state.readAt, sweptAt: state.sweptAt }));
    if (plan.discovery?.mode !== 'per-address') throw new Error('expected per-address');
    expect(plan.discovery.sweeps.map((s) => s.list)).toEqual([a]);
    const cycle = new CycleBudget(3);
    const x = t.execution(cycle);
    expect(await runNetworkPlan(plan, x)).toBeNull();
    expect(cycle.used).toBe(3);
    expect(state.readAt.get(a)).toBe(x.nowMs);
    expect(state.readAt.get(b)).toBe(x.nowMs);
    const token = state.listSweeps.get(a)?.token;
    expect(token).toEqual(expect.any(String));
    expect(state.sweptAt.has(a)).toBe(false);
    // The next cycle goes on from there until the sweep passes its floor.
    await rig!.clock.advance(10_000);
    const next = planNetwork(
      input({ addresses: lists, lastDiscoveryAt: rig!.clock.now() - 10_000, readAt: state.readAt, sweptAt: state.sweptAt, listSweeps: state.listSweeps }),
    );
    if (next.discovery?.mode !== 'per-address') throw new Error('expected per-address');
    expect(next.discovery.sweeps.map((s) => [s.list, s.step.resumeToken])).toEqual([
      [a, token],
      [b, undefined], // the next list due starts its own
    ]);
    expect(await runNetworkPlan(next, t.execution(new CycleBudget(1000)))).toBeNull();
    expect(state.listSweeps.has(a)).toBe(false);
    expect(state.sweptAt.get(a)).toBe(x.nowMs); // when it started
  });

  it("per address: a list's scan the budget stopped moves on from its top next cycle, and the pages it did not reach go on as its sweep", async () => {
    const t = await setup();
    const address = t.svc.simulator.addresses[0]!;
    rig!.watch(address);
    const { plan, pages } = await pastThirdPage(t.client, address);
    const x = t.execution(new CycleBudget(2));
    expect(await runNetworkPlan(plan, x)).toMatchObject({ kind: 'rate_limited' }); // the cycle's budget
    const state = x.state;
    expect(state.readAt.get(address)).toBe(x.nowMs); // its next scan starts below now, not below the last completed read
    const sweep = state.listSweeps.get(address);
    expect(sweep).toEqual({ token: expect.any(String), floorTs: expect.any(Number), startedAt: 0 });
    const third = new Set(pages[2]!.map((m) => m.messageId));
    expect(t.read.some((m) => third.has(m.messageId))).toBe(false);
    // The next cycle reads the list's top, then goes on from that token down past the message it looks for.
    await rig!.clock.advance(10_000);
    const next = planNetwork(
      input({
        addresses: [{ key: address, baselineDone: true }],
        readAt: state.readAt,
        sweptAt: new Map([[address, rig!.clock.now()]]),
        listSweeps: state.listSweeps,
      }),
    );
    if (next.discovery?.mode !== 'per-address') throw new Error('expected per-address');
    expect(next.discovery.sweeps.map((s) => s.step.resumeToken)).toEqual([sweep!.token]);
    expect(await runNetworkPlan(next, t.execution(new CycleBudget(100)))).toBeNull();
    expect(pages[2]!.every((m) => t.read.some((r) => r.messageId === m.messageId))).toBe(true);
    expect(state.listSweeps.has(address)).toBe(false);
  });

  it('per address: pages a list for its due messages only so deep, and asks by ID the ones below', async () => {
    const t = await setup();
    const address = t.svc.simulator.addresses[0]!;
    rig!.watch(address);
    const pages = await addressPages(t.client, address, 3);
    const deep = pages[2]![50]!;
    const plan = planNetwork(
      input({
        addresses: [{ key: address, baselineDone: true }],
        due: [{ messageId: deep.messageId, ts: messageTimestamp(deep)!, address, feeds: [] }],
      }),
    );
    if (plan.discovery?.mode !== 'per-address') throw new Error('expected per-address');
    const step = plan.discovery.scans[0]!;
    if (step.stop.kind !== 'found') throw new Error('expected a found rule');
    expect(step.stop.needPages).toBe(NEED_MAX_PAGES);
    step.stop = { ...step.stop, needPages: 2 }; // this address has 3 pages down to it: 2 stand for the cap here
    const cycle = new CycleBudget(100);
    expect(await runNetworkPlan(plan, t.execution(cycle))).toBeNull();
    expect(cycle.used).toBe(3); // two pages, then the message by ID
    const readIds = t.read.map((m) => m.messageId);
    expect(readIds.slice(0, 200)).toEqual(
      pages
        .slice(0, 2)
        .flat()
        .map((m) => m.messageId),
    );
    expect(readIds.at(-1)).toBe(deep.messageId);
  });

  it('per address: past that depth pages on while each page finds a due message (a backlog pages cheaper than by ID)', async () => {
    const t = await setup();
    const address = t.svc.simulator.addresses[0]!;
    rig!.watch(address);
    const pages = await addressPages(t.client, address, 3);
    const due = pages.map((page) => page[10]!).map((m) => ({ messageId: m.messageId, ts: messageTimestamp(m)!, address, feeds: [] }));
    const plan = planNetwork(input({ addresses: [{ key: address, baselineDone: true }], due }));
    if (plan.discovery?.mode !== 'per-address') throw new Error('expected per-address');
    const step = plan.discovery.scans[0]!;
    if (step.stop.kind !== 'found') throw new Error('expected a found rule');
    step.stop = { ...step.stop, needPages: 1 };
    const cycle = new CycleBudget(100);
    expect(await runNetworkPlan(plan, t.execution(cycle))).toBeNull();
    expect(t.read.slice(0, 300).map((m) => m.messageId)).toEqual(pages.flat().map((m) => m.messageId));
    expect(t.read.filter((m) => m.messageId === due[2]!.messageId)).toHaveLength(1); // read on its page, not asked again by ID
  });
});
