/**
 * One timeline (issue 41): a real core on the local service whose relayer-silent, route-backlog and
 * failed-execution alerts fire and resolve lists those fires and resolves in Activity (`listActivity`), in
 * time order with the watched messages' transitions, with their severity and their words; the filters by
 * kind and severity, paging stable while new entries arrive, the live `alerts` event carrying the same
 * entries, and `core.log` saying in words (chain names, no raw IDs or keys) what fired.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MONITOR_RESULTS,
  parseMonitorEvent,
  type ActivityItem,
  type ActivityPage,
  type AlertEntry,
  type MonitorEvent,
  type Transition,
} from '../../src/shared/contract';
import type { RelayerOverview } from '../../src/shared/relayers';
import { waitFor } from '../support/wait-for';
import { serviceAndCore } from './core-on-service';
import { BEAM, C_CHAIN } from './helpers';

const MIN = 60_000;

/** An item's place in the timeline, newest first: time, then an alert above a transition of the same ms, then ID. */
const order = (a: ActivityItem, b: ActivityItem) => b.at - a.at || (b.kind === 'alert' ? 1 : 0) - (a.kind === 'alert' ? 1 : 0) || b.id - a.id;
const isAlert = (i: ActivityItem): i is AlertEntry => i.kind === 'alert';
const keyOf = (i: ActivityItem) => `${i.kind === 'alert' ? 'a' : 't'}${i.id}`;

describe('one timeline: alerts in Activity beside the message transitions', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('lists every fire and resolve with its severity and words, in time order with the transitions; filters; stable pages; live; logged in words', async () => {
    const { svc, core, clock, dataDir } = await serviceAndCore({ rate: 0, warmStore: false, addressCount: 10 }, cleanups, Date.UTC(2026, 0, 1, 12));
    const events: MonitorEvent[] = [];
    core.onEvent((e) => void events.push(e));
    const call = async <T>(method: string, input?: unknown): Promise<T> => {
      const r = await core.invoke(method, input);
      if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
      return r.value as T;
    };
    const poll = async (minutes = 1) => {
      await clock.advance(minutes * MIN);
      await call('pollNow');
    };

    // A watched address (its messages make transitions) and the route they travel, with its alerts.
    const a = svc.simulator.addresses[0]!;
    await call('addWatch', { address: a, label: 'sender' });
    await call('addRoute', { source: 'C-Chain', destination: 'Beam', label: 'c-to-beam', backlogMinutes: 20 });
    await call('updateSettings', { routeFailedExecutionsPerHour: 2 });
    await call('pollNow');
    const send = (o: { deliveryDelayMs: number; executed?: boolean }) =>
      svc.simulator.send({ outcome: 'normal', from: a, source: C_CHAIN, destination: BEAM, executed: true, receiptDelayMs: 10 * 3_600_000, ...o });
    for (let i = 0; i < 4; i++) send({ deliveryDelayMs: 3_000 });
    // Two deliveries whose execution fails: the route's failed-execution alert fires at the threshold of 2.
    send({ deliveryDelayMs: 3_000, executed: false });
    send({ deliveryDelayMs: 3_000, executed: false });
    await poll();
    const overview = await call<RelayerOverview>('relayerOverview');
    const ours = overview.relayers.find((r) => r.deliveries24h > 0)!;
    await call('addRelayer', { address: ours.address, label: 'ours', silentMinutes: 10, pendingMinutes: 5 });

    // One message waits 45 min: the relayer falls silent (12 min on), the route backs up (20 min past its send), then both clear.
    send({ deliveryDelayMs: 45 * 60_000 });
    for (let m = 0; m < 30; m++) await poll();
    // Paging started now must not change as later entries arrive.
    const firstPage = await call<ActivityPage>('listActivity', { limit: 4 });
    for (let m = 0; m < 20; m++) await poll();
    // The failures age out of the last hour: that alert resolves too.
    await poll(15);

    const all: ActivityItem[] = [];
    for (let before: ActivityPage['next'] | undefined, n = 0; n === 0 || before; n++) {
      const page = await call<ActivityPage>('listActivity', { limit: 7, ...(before ? { before } : {}) });
      all.push(...page.items);
      before = page.next;
    }
    const transitions = await call<{ items: Transition[] }>('listTransitions', { limit: 500 });
    // Every transition and every alert entry, once each, in time order.
    expect(all.map(keyOf)).toEqual([...all].sort(order).map(keyOf));
    expect(new Set(all.map(keyOf)).size).toBe(all.length);
    expect(all.filter((i) => !isAlert(i)).map((t) => t.id)).toEqual([...transitions.items].sort((x, y) => y.at - x.at || y.id - x.id).map((t) => t.id));
    expect(transitions.items.map((t) => t.kind)).toContain('stuck');

    const alerts = all.filter(isAlert).reverse();
    expect(alerts.map((e) => `${e.episodeKind}:${e.phase}:${e.severity}`)).toEqual([
      'route_failed_executions:fire:warning',
      'relayer_silent:fire:warning',
      'route_backlog:fire:warning',
      // The late message is delivered: both clear in the same cycle.
      ...['relayer_silent:resolve:success', 'route_backlog:resolve:success'].sort(),
      'route_failed_executions:resolve:success',
    ]);
    const [failedFire, silentFire, backlogFire] = alerts;
    expect(silentFire).toMatchObject({ title: 'Relayer silent: ours', subject: 'ours', relayer: ours.address, network: 'mainnet' });
    expect(silentFire!.body).toMatch(
      /^ours \(0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}\) has not delivered for \d+ min while C-Chain → Beam holds a message pending \d+ min/,
    );
    expect(backlogFire).toMatchObject({ title: 'Route backlog: c-to-beam', subject: 'c-to-beam', sourceChain: C_CHAIN, destinationChain: BEAM });
    expect(backlogFire!.body).toMatch(/^The oldest pending message on C-Chain → Beam is older than 20 min/);
    expect(failedFire).toMatchObject({ title: 'Failed executions on c-to-beam', sourceChain: C_CHAIN, destinationChain: BEAM });
    expect(failedFire!.body).toMatch(/^2 message\(s\) delivered on C-Chain → Beam in the last hour failed to execute \(threshold 2\)/);
    for (const e of alerts) {
      // Words, not raw IDs or keys.
      for (const raw of [C_CHAIN, BEAM, 'failed:', 'route-backlog:', 'relayer-silent:']) expect(`${e.title} ${e.body}`).not.toContain(raw);
      expect(alerts.filter((x) => x.episodeId === e.episodeId).map((x) => x.phase)).toEqual(['fire', 'resolve']);
    }

    // Live: each fire and resolve reached the listeners as it happened, as the read lists it.
    const live = events.flatMap((e) => (e.type === 'alerts' ? e.alerts : []));
    expect(live).toEqual(alerts);
    // Both as the contract describes them, nothing more (what crosses the wire parses to itself).
    const wire = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
    for (const e of events.filter((x) => x.type === 'alerts')) expect(parseMonitorEvent(wire(e))).toEqual({ ok: true, event: wire(e) });
    const page = { items: all };
    expect(MONITOR_RESULTS.listActivity.parse(wire(page))).toEqual(wire(page));

    // Filters: by alert kind (no message kind), by severity across both, by message kind (no alert).
    const only = async (q: object) => (await call<ActivityPage>('listActivity', { limit: 500, ...q })).items;
    expect((await only({ kinds: [], alertKinds: ['route_backlog'] })).map((i) => (isAlert(i) ? i.phase : i.kind))).toEqual(['resolve', 'fire']);
    const successes = await only({ severities: ['success'] });
    expect(successes.map(keyOf)).toEqual(
      alerts
        .filter((e) => e.phase === 'resolve')
        .reverse()
        .map(keyOf),
    );
    const warnings = await only({ severities: ['warning'] });
    expect(warnings.map((i) => (isAlert(i) ? i.episodeKind : i.kind)).sort()).toEqual(
      ['relayer_silent', 'route_backlog', 'route_failed_executions', ...transitions.items.filter((t) => t.kind === 'stuck').map(() => 'stuck')].sort(),
    );
    expect((await only({ alertKinds: [] })).every((i) => !isAlert(i))).toBe(true);
    expect((await only({ kinds: ['stuck'], alertKinds: [] })).map((i) => i.kind)).toEqual(
      transitions.items.filter((t) => t.kind === 'stuck').map(() => 'stuck'),
    );
    // An address's Activity has its messages only: an alert is nobody's message.
    expect((await only({ address: a })).every((i) => !isAlert(i))).toBe(true);

    // The page read before later entries arrived is the same page now, and its cursor goes on where it stopped.
    const again = await call<ActivityPage>('listActivity', { limit: 4, before: firstPage.next });
    const firstAt = all.findIndex((i) => keyOf(i) === keyOf(firstPage.items[0]!));
    expect(all.slice(firstAt, firstAt + 4).map(keyOf)).toEqual(firstPage.items.map(keyOf));
    expect(again.items.map(keyOf)).toEqual(all.slice(firstAt + 4, firstAt + 8).map(keyOf));

    // core.log: one line per fire (warn) and resolve (info), in words, the kind, key and names beside it.
    const logged = await waitFor(
      () => {
        const lines = readFileSync(join(dataDir, 'logs', 'core.log'), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { level: string; msg: string; alert?: string; phase?: string; key?: string; sourceChainName?: string });
        const said = lines.filter((l) => l.alert);
        return said.length >= alerts.length ? said : false;
      },
      10_000,
      'the alert lines in core.log',
    );
    expect(logged.map((l) => `${l.alert}:${l.phase}:${l.level}`)).toEqual(
      alerts.map((e) => `${e.episodeKind}:${e.phase}:${e.phase === 'fire' ? 'warn' : 'info'}`),
    );
    for (const [i, l] of logged.entries()) {
      expect(l.msg).toBe(`${alerts[i]!.title} — ${alerts[i]!.body}`);
      expect(l.key).toBeTruthy();
      expect(l.msg).not.toContain(l.key!);
    }
    expect(logged.find((l) => l.alert === 'route_backlog')!.sourceChainName).toBe('C-Chain');
  });
});
