// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { useActivityStore } from '../../src/renderer/src/stores/activity';
import { C_CHAIN, BEAM, msgId } from './fixtures';
import { setupRenderer } from './setup';
import type { FakeMonitor } from './fake-monitor';

const record = (fake: FakeMonitor, n: number, kind: 'new' | 'left_pending' | 'receipt_delivered' | 'stuck') =>
  fake.addTransition({ messageId: msgId(n), kind, fromStatus: null, toStatus: 'pending', network: 'mainnet', sourceBlockchainId: C_CHAIN.blockchainId, destinationBlockchainId: BEAM.blockchainId, watchers: [] });

describe('activity store', () => {
  it('loads the log newest first, filters by kind and loads older entries', async () => {
    const { fake } = setupRenderer();
    for (let i = 1; i <= 120; i++) record(fake, i, i % 3 === 0 ? 'stuck' : 'new');
    const s = useActivityStore();
    await s.load();
    expect(s.items).toHaveLength(50);
    expect(s.items[0]?.id).toBe(120);
    await s.loadOlder();
    await s.loadOlder();
    expect(s.items).toHaveLength(120);
    expect(s.nextBeforeId).toBeUndefined();
    await s.setKinds(['stuck']);
    expect(fake.callsOf('listTransitions').at(-1)).toEqual({ kinds: ['stuck'], limit: 50 });
    expect(s.items.every((t) => t.kind === 'stuck')).toBe(true);
    expect(s.items).toHaveLength(40);
  });

  it('prepends live transitions that match the filter and queues every arrival as a toast', async () => {
    const { fake, api } = setupRenderer();
    const s = useActivityStore();
    await s.setKinds(['receipt_delivered']);
    api.onEvent((e) => s.handleEvent(e));
    record(fake, 1, 'new');
    record(fake, 2, 'receipt_delivered');
    fake.emit({ type: 'notification', notification: { id: 9, title: 'Delivered', body: 'x', messageId: msgId(2), transitionIds: [2] } });
    fake.emit({ type: 'notification', notification: { id: 10, title: '3 changes', body: 'y', transitionIds: [2, 3, 4] } });
    record(fake, 3, 'stuck'); // already announced by notification 10
    expect(s.items.map((t) => t.kind)).toEqual(['receipt_delivered']);
    const toasts = s.takeToasts();
    // One toast per change: notification 9 only repeats transition 2.
    expect(toasts.map((t) => t.key)).toEqual(['t1', 't2', 'n10']);
    expect(s.takeToasts()).toEqual([]);
  });

  it('keeps the error and recovers on the next load', async () => {
    const { fake } = setupRenderer();
    const s = useActivityStore();
    fake.failNext('listTransitions', { kind: 'internal', message: 'database is locked' });
    await s.load();
    expect(s.error?.message).toBe('database is locked');
    await s.load();
    expect(s.error).toBeNull();
  });
});
