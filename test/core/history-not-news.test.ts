/**
 * History is not news (team mode, issue 18): a message delivered long before a watcher's baseline, and
 * first read by that baseline, must not fire for ANOTHER watcher of it that is already live (the other
 * end of the message, whose baseline ended earlier in the same cycle). A message that is really new
 * (newer than what discovery covered) and first read by the baseline still fires for the live one.
 * Against the real local service, through the real executor.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Transition } from '../../src/shared/contract';
import { createLogger } from '../../src/core/log/logger';
import { runNetworkPlan, type Execution } from '../../src/core/poller/executor';
import { NetworkStates } from '../../src/core/poller/network-state';
import { planNetwork } from '../../src/core/poller/planner';
import { type NetworkPlanInput } from '../../src/core/poller/plan-types';
import { CycleBudget } from '../../src/core/poller/scan';
import { engineOnService, type EngineOnService } from './engine-on-service';
import { apiRecord } from './helpers';
import { around } from './poller-on-service';
import { planInputAt } from '../support/plan-input';

let on: EngineOnService | null = null;
afterEach(async () => {
  await on?.close();
  on = null;
});

function execution(o: EngineOnService, client = o.client) {
  const transitions: Transition[] = [];
  const states = new NetworkStates(o.rig.store.pollState);
  const x: Execution = {
    client,
    cycle: new CycleBudget(1000),
    state: states.get('mainnet', o.svc.url),
    states,
    engine: o.rig.engine,
    messages: o.rig.store.messages,
    watches: o.rig.store.watches,
    logger: createLogger(),
    onTransitions: (t) => transitions.push(...t),
    hooks: [],
    nowMs: o.rig.clock.now(),
  };
  return { x, transitions };
}

const input = (o: EngineOnService, p: Partial<NetworkPlanInput>): NetworkPlanInput => planInputAt(o.rig.clock.now(), p);

/** One firehose cycle (cursor at `headTs`, 1 msg/s) with `live` watching and `baselining`'s baseline planned; its transitions. */
async function firehoseCycleWithBaseline(o: EngineOnService, client: EngineOnService['client'], w: { live: string[]; baselining: string; headTs: number }) {
  const { x, transitions } = execution(o, client);
  x.state.head = { ts: w.headTs, at: o.rig.clock.now() - 10_000 };
  x.state.ratePerSec = 1;
  const addresses = [...w.live.map((key) => ({ key, baselineDone: true })), { key: w.baselining, baselineDone: false }];
  const plan = planNetwork(input(o, { head: x.state.head, ratePerSec: 1, addresses }));
  expect(plan.discovery?.mode).toBe('firehose');
  expect(await runNetworkPlan(plan, x)).toBeNull();
  return transitions;
}

describe('history is not news', () => {
  it("a message delivered before the start, first read by one end's baseline, fires nothing for the other end already live", async () => {
    on = await engineOnService({ preload: 200, seed: 8 });
    const { svc, rig } = on;
    const [x, y] = [svc.simulator.addresses[0]!, svc.simulator.addresses[1]!];
    const nowSec = Math.floor(rig.clock.now() / 1000);
    // Delivered (its receipt too) an hour before anyone watched.
    const old = apiRecord({ from: x, to: y, status: 'delivered', receiptDelivered: true, ts: nowSec - 3600 });
    svc.store.upsert(old);
    // The cycle was planned with both baselines to take; Y's ended first (its baseline never met the message).
    rig.watch(x, { baselineDone: false });
    rig.watch(y);
    const plan = planNetwork(input(on, { addresses: [{ key: x, baselineDone: false }] }));
    expect(plan.baselines.map((b) => b.watcher)).toEqual([x]);
    const { x: exec, transitions } = execution(on);
    expect(await runNetworkPlan(plan, exec)).toBeNull();
    expect(rig.store.messages.state(old.messageId as string)).not.toBeNull(); // read by X's baseline
    expect(transitions.filter((t) => t.messageId === old.messageId)).toEqual([]);
    expect(rig.store.transitions.list({ messageId: old.messageId as string })).toEqual([]);
    expect(rig.store.outbox.pendingCount()).toBe(0);
  });

  it('in firehose mode: first read by a baseline, a message below the cursor is history; one newer than the cursor is news for the live end', async () => {
    on = await engineOnService({ preload: 300, seed: 9 });
    const { svc, rig, client } = on;
    const live = svc.simulator.addresses.slice(2, 8);
    const [x, y] = [svc.simulator.addresses[0]!, live[0]!];
    for (const a of live) rig.watch(a);
    rig.watch(x, { baselineDone: false });
    const nowSec = Math.floor(rig.clock.now() / 1000);
    // Visible before the cycle, but under the part of the list the head scan reads (500 newer records, nobody's).
    const old = apiRecord({ from: x, to: y, status: 'delivered', receiptDelivered: true, ts: nowSec - 600 });
    svc.store.upsertMany([old, ...Array.from({ length: 500 }, (_, k) => apiRecord({ ts: nowSec - Math.floor(k / 100) }))]);
    // Sent while the cycle runs: it appears after the head scan, before X's baseline reads its page.
    const fresh = apiRecord({ from: x, to: y, status: 'pending', ts: nowSec + 1 });
    let inject: (() => void) | null = () => svc.store.upsert(fresh);
    const c = around(client, (method) => {
      if (method !== 'listAddressMessages' || !inject) return;
      const f = inject;
      inject = null;
      f();
    });
    const transitions = await firehoseCycleWithBaseline(on, c, { live, baselining: x, headTs: nowSec });
    expect(inject).toBeNull();
    expect(rig.store.messages.state(old.messageId as string)).not.toBeNull();
    expect(transitions.filter((t) => t.messageId === old.messageId)).toEqual([]);
    expect(transitions.filter((t) => t.messageId === fresh.messageId).map((t) => t.kind)).toEqual(['new']);
  });

  it("a message sent after the live end was added, listed late below the cursor, first read by another's baseline, is news for the live end", async () => {
    on = await engineOnService({ preload: 300, seed: 10 });
    const { svc, rig, client } = on;
    const live = svc.simulator.addresses.slice(2, 8);
    const [x, y] = [svc.simulator.addresses[0]!, live[0]!];
    for (const a of live) rig.watch(a);
    const addedSec = Math.floor(rig.clock.now() / 1000);
    await rig.clock.advance(600_000);
    rig.watch(x, { baselineDone: false });
    const nowSec = Math.floor(rig.clock.now() / 1000);
    // Sent 30 s after Y was added, listed only now (the indexer lists records late), under 600 newer
    // records and the cursor's overlap: the head scan stops before it (its last page is nobody's, 100 s old).
    const late = apiRecord({ from: x, to: y, status: 'pending', ts: addedSec + 30 });
    // Sent before anyone watched, listed as deep: history for everyone.
    const old = apiRecord({ from: x, to: y, status: 'delivered', receiptDelivered: true, ts: addedSec - 600 });
    const newer = Array.from({ length: 600 }, (_, k) => apiRecord({ ts: k < 500 ? nowSec - Math.floor(k / 100) : nowSec - 100 }));
    svc.store.upsertMany([late, old, ...newer]);
    const transitions = await firehoseCycleWithBaseline(on, client, { live, baselining: x, headTs: nowSec });
    expect(transitions.filter((t) => t.messageId === old.messageId)).toEqual([]);
    const news = transitions.filter((t) => t.messageId === late.messageId);
    expect(news.map((t) => t.kind)).toEqual(['new']);
    // News for Y alone: X was mid-baseline.
    expect(rig.store.messageWatchers.of(late.messageId as string).find((w) => w.watcher === x)).toMatchObject({ baseline: true });
  });
});
