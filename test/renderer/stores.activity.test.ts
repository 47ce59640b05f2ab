// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { TOASTED_KEPT, useActivityStore } from '../../src/renderer/src/stores/activity';
import type { SendOptions } from '../../src/local-service';
import type { MonitorEvent } from '../../src/shared/contract';
import { BEAM } from './fixtures';
import { type RealRenderer, setupRealRenderer, until } from './real-core';

const HOUR = 3_600_000;

/** Sends a message a second after the previous one (real traffic never shares a timestamp). */
async function send(r: RealRenderer, o: SendOptions): Promise<string> {
  await r.clock.advance(1000);
  return r.service.simulator.send(o);
}

/** Watches an address (baseline taken) and returns it. */
async function watched(r: RealRenderer, i = 0, notify?: Record<string, boolean>): Promise<string> {
  const address = r.service.simulator.addresses[i]!;
  expect(await r.core.invoke('addWatch', { address, ...(notify ? { notify } : {}) })).toMatchObject({ ok: true });
  await r.poll();
  return address;
}

describe('activity store (real core)', () => {
  it('loads the log newest first, filters by kind and loads older entries', async () => {
    const r = await setupRealRenderer();
    const a = await watched(r);
    // 60 messages seen pending (60 new), then 30 of them delivered (30 left_pending): 90 entries.
    const ids: string[] = [];
    for (let i = 0; i < 60; i++)
      ids.push(
        await send(r, {
          outcome: 'normal',
          destination: BEAM.blockchainId,
          from: a,
          deliveryDelayMs: i < 30 ? 10 * 60_000 : 10 * HOUR,
          receiptDelayMs: 10 * HOUR,
        }),
      );
    await r.clock.advance(1000);
    await r.poll();
    await r.clock.advance(11 * 60_000);
    await r.poll();
    const s = useActivityStore();
    await s.load();
    expect(s.items).toHaveLength(50);
    expect(s.items.map((t) => t.at)).toEqual([...s.items.map((t) => t.at)].sort((x, y) => y - x));
    await s.loadOlder();
    expect(s.items).toHaveLength(90);
    expect(s.next).toBeUndefined();
    await s.setKinds(['left_pending']);
    expect(r.transport.callsOf('listActivity').at(-1)).toEqual({ kinds: ['left_pending'], limit: 50 });
    expect(s.items.map((t) => (t.kind === 'alert' ? t.title : t.messageId)).sort()).toEqual(ids.slice(0, 30).sort());
  });

  it('applies each cycle as one batch: matching entries prepended, every arrival queued as a toast, none twice', async () => {
    const r = await setupRealRenderer();
    const a = await watched(r, 0, { new: false, left_pending: true, receipt_delivered: true, stuck: true });
    const s = useActivityStore();
    await s.setKinds(['left_pending']);
    const batches: Extract<MonitorEvent, { type: 'transitions' }>[] = [];
    r.api.onEvent((e) => {
      if (e.type === 'transitions') batches.push(e);
    });
    const id = await send(r, { outcome: 'normal', destination: BEAM.blockchainId, from: a, deliveryDelayMs: 60_000, receiptDelayMs: 10 * HOUR });
    await send(r, { outcome: 'normal', destination: BEAM.blockchainId, from: a, deliveryDelayMs: 10 * HOUR });
    await r.clock.advance(1000);
    await r.poll();
    await r.clock.advance(2 * 60_000);
    await r.poll();
    // One event per cycle: both arrivals in the first, the delivery in the second.
    expect(batches.map((b) => b.transitions.map((t) => `${t.messageId === id ? 'id' : 'other'}:${t.kind}`).sort())).toEqual([
      ['id:new', 'other:new'],
      ['id:left_pending'],
    ]);
    expect(s.items.map((t) => [t.kind === 'alert' ? t.title : t.messageId, t.kind])).toEqual([[id, 'left_pending']]);
    // "new" is left out of this watch's Notify-on choices: logged, not toasted.
    await until(() => expect(s.pendingToasts.map((t) => (t.kind === 'transition' ? t.transition.kind : t.notification.title))).toContain('left_pending'));
    const toasts = s.takeToasts();
    expect(toasts.filter((t) => t.kind === 'transition').map((t) => t.key)).toEqual([`t${batches[1]!.transitions[0]!.id}`]);
    expect(s.takeToasts()).toEqual([]);
  });

  it('remembers a bounded window of toasted changes: a notification for one toasted long ago shows again, one for the latest batch does not', async () => {
    const r = await setupRealRenderer();
    const s = useActivityStore();
    const a = r.service.simulator.addresses[0]!;
    const transition = (id: number) => ({
      id,
      messageId: id.toString(16).padStart(64, '0'),
      kind: 'left_pending' as const,
      fromStatus: 'pending',
      toStatus: 'delivered',
      at: r.clock.now(),
      network: 'mainnet' as const,
      source: 'local',
      sourceBlockchainId: BEAM.blockchainId,
      destinationBlockchainId: BEAM.blockchainId,
      watchers: [{ kind: 'address' as const, address: a }],
      notify: true,
    });
    const batch = (from: number, count: number) =>
      r.transport.fromShell({ type: 'transitions', transitions: Array.from({ length: count }, (_, i) => transition(from + i)), watches: [] });
    const notification = (id: number, transitionIds: number[], severity: 'warning' | 'info' = 'warning') =>
      r.transport.fromShell({ type: 'notification', notification: { id, title: 'Message stuck', body: '', severity, transitionIds } });
    const notificationToasts = () => s.takeToasts().flatMap((t) => (t.kind === 'notification' ? [t.key] : []));
    batch(1, 1);
    batch(2, TOASTED_KEPT); // a long session's worth of changes after the first
    expect(s.takeToasts()).toHaveLength(TOASTED_KEPT + 1);
    notification(1, [TOASTED_KEPT + 1]); // the latest change: already toasted
    notification(2, [1]); // the first change: out of the window, so the core's notification is shown
    expect(notificationToasts()).toEqual(['n2']);
    // A batch larger than the window is remembered whole.
    batch(5000, 2 * TOASTED_KEPT);
    s.takeToasts();
    notification(3, [5000, 5000 + 2 * TOASTED_KEPT - 1]);
    expect(notificationToasts()).toEqual([]);
    // A routine notification of changes this page never saw is a backlog from before it opened: no stale toast.
    notification(4, [1], 'info');
    expect(notificationToasts()).toEqual([]);
    // An episode's warning or recovery (no transitions) always shows.
    notification(5, [], 'info');
    expect(notificationToasts()).toEqual(['n5']);
  });

  it('keeps the error and recovers on the next load', async () => {
    const r = await setupRealRenderer();
    const s = useActivityStore();
    // A request the core refuses (a cursor's ID must be positive) is an error value, shown as such.
    s.next = { at: 1, kind: 'message', id: -1 };
    await s.loadOlder();
    expect(s.error?.kind).toBe('invalid_input');
    await s.load();
    expect(s.error).toBeNull();
    expect(r.transport.callsOf('listActivity')).toHaveLength(2);
  });
});
