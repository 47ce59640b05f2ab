import { describe, expect, it } from 'vitest';
import { reopenRig, watchingRigPerTest } from './rig-per-test';
import type { MonitorEvent, NotificationPayload } from '../../src/shared/contract';
import { createLogger } from '../../src/core/log/logger';
import { OutboxDrainer } from '../../src/core/notify/drainer';
import { msg, randomAddress } from './helpers';

describe('notification outbox', () => {
  const me = randomAddress();
  const rig = watchingRigPerTest(me);

  const drainer = (shown: NotificationPayload[], events: MonitorEvent[] = [], fail = false) =>
    new OutboxDrainer(
      rig.store.outbox,
      rig.clock,
      createLogger(),
      (n) => {
        if (fail) throw new Error('display refused');
        shown.push(n);
      },
      (e) => events.push(e),
    );

  it('shows up to three one by one, and more than three as one summary', async () => {
    const shown: NotificationPayload[] = [];
    rig.engine.observe(
      [1, 2, 3].map(() => msg({ from: me, status: 'pending' })),
      'mainnet',
    );
    await drainer(shown).drain();
    expect(shown.map((n) => n.transitionIds.length)).toEqual([1, 1, 1]);
    expect(shown.every((n) => n.messageId)).toBe(true);
    rig.engine.observe(
      [1, 2, 3, 4, 5].map(() => msg({ from: me, status: 'delivered' })),
      'mainnet',
    );
    shown.length = 0;
    await drainer(shown).drain();
    expect(shown).toHaveLength(1);
    expect(shown[0]?.transitionIds).toHaveLength(10); // new + left_pending for five messages
    expect(shown[0]?.messageId).toBeUndefined();
    expect(shown[0]?.title).toBe('10 message updates');
    await drainer(shown).drain();
    expect(shown).toHaveLength(1);
  });

  it('never sums up a warning or a recovery with routine updates: each is shown alone with its severity', async () => {
    const shown: NotificationPayload[] = [];
    rig.engine.observe(
      [1, 2, 3, 4, 5].map(() => msg({ from: me, status: 'pending' })),
      'mainnet',
    );
    rig.store.outbox.addEpisode({ episodeId: 7, phase: 'fire', title: 'Relayer silent: Ours', body: 'b', createdAt: rig.clock.now() });
    rig.store.outbox.addEpisode({ episodeId: 7, phase: 'resolve', title: 'Relayer delivering again: Ours', body: 'b', createdAt: rig.clock.now() });
    await drainer(shown).drain();
    expect(shown.map((n) => [n.title, n.severity])).toEqual([
      ['5 message updates', 'info'],
      ['Relayer silent: Ours', 'warning'],
      ['Relayer delivering again: Ours', 'success'],
    ]);
    expect(shown[0]?.transitionIds).toHaveLength(5);
  });

  it('keeps a notification the shell failed to show, and shows it later exactly once', async () => {
    rig.engine.observe([msg({ from: me, status: 'pending' })], 'mainnet');
    await drainer([], [], true).drain();
    const shown: NotificationPayload[] = [];
    const events: MonitorEvent[] = [];
    await drainer(shown, events).drain();
    await drainer(shown, events).drain();
    expect(shown).toHaveLength(1);
    expect(events.filter((e) => e.type === 'notification')).toHaveLength(1);
  });

  it('with no notifier attached keeps everything; an attached one shows it, a detached one no more', async () => {
    const events: MonitorEvent[] = [];
    const d = new OutboxDrainer(rig.store.outbox, rig.clock, createLogger(), undefined, (e) => events.push(e));
    rig.engine.observe(
      [1, 2, 3, 4, 5].map(() => msg({ from: me, status: 'pending' })),
      'mainnet',
    );
    await d.drain();
    await d.drain();
    expect(events).toEqual([]);
    expect(rig.store.outbox.pendingCount()).toBe(5);

    const shown: NotificationPayload[] = [];
    const detach = d.attach((n) => void shown.push(n));
    await d.drain();
    expect(shown.map((n) => n.title)).toEqual(['5 message updates']);
    expect(rig.store.outbox.pendingCount()).toBe(0);

    detach();
    rig.engine.observe([msg({ from: me, status: 'pending' })], 'mainnet');
    await d.drain();
    expect(shown).toHaveLength(1);
    expect(rig.store.outbox.pendingCount()).toBe(1);
    d.attach((n) => void shown.push(n));
    await d.drain();
    expect(shown).toHaveLength(2);
    expect(events.filter((e) => e.type === 'notification')).toHaveLength(2);
  });

  it('re-shows a batch claimed before a crash with the same ID after a restart', async () => {
    rig.engine.observe(
      [1, 2, 3, 4].map(() => msg({ from: me, status: 'pending' })),
      'mainnet',
    );
    const claimed = rig.store.outbox.claim(); // claimed, then the process "dies" before the ack
    expect(claimed).toHaveLength(1);
    reopenRig(rig);
    const shown: NotificationPayload[] = [];
    await drainer(shown).drain();
    expect(shown.map((n) => n.id)).toEqual([claimed[0]!.id]);
    expect(shown[0]?.transitionIds).toEqual(claimed[0]?.transitionIds);
  });
});
