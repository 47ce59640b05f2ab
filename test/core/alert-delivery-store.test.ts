import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AlertDeliveryStore } from '../../src/core/alerts/delivery-store';
import { openStore } from '../../src/core/store';
import { logNewTransition } from './store/store-rig';

function addTransition(store: ReturnType<typeof openStore>, n: number, at = 1000): void {
  const messageId = String(n).padStart(64, 'a');
  const id = logNewTransition(store, messageId, at, [{ kind: 'address', address: '0xabc' }]);
  store.outbox.add({ transitionId: id, messageId, title: 't', body: 'b', createdAt: at });
}

describe('alert delivery rows (real SQLite)', () => {
  it('a new channel starts after existing rows; each row is due once until delivered; failures wait for their retry time', () => {
    const store = openStore(mkdtempSync(join(tmpdir(), 'tw-ads-')));
    const d = new AlertDeliveryStore(store.db);
    addTransition(store, 1);
    d.register('hook');
    expect(d.due('hook', 0, 10)).toEqual([]);
    addTransition(store, 2);
    addTransition(store, 3);
    const due = d.due('hook', 0, 10);
    expect(due.map((r) => [r.kind, r.watchers, r.attempts])).toEqual([
      ['new', ['0xabc'], 0],
      ['new', ['0xabc'], 0],
    ]);
    d.delivered('hook', [due[0]!.outboxId], 5);
    d.failed('hook', [due[1]!.outboxId], 100, 'down');
    expect(d.due('hook', 50, 10)).toEqual([]);
    expect(d.nextDueAt('hook')).toBe(100);
    expect(d.due('hook', 100, 10).map((r) => [r.outboxId, r.attempts])).toEqual([[due[1]!.outboxId, 1]]);
    // Registering again (a restart) keeps the cursor: nothing is replayed.
    d.register('hook');
    expect(d.pendingCount('hook')).toBe(1);
    store.close();
  });

  it('drops an undelivered row whose transition retention pruned, instead of retrying it forever', () => {
    const store = openStore(mkdtempSync(join(tmpdir(), 'tw-ads-')));
    const d = new AlertDeliveryStore(store.db);
    d.register('hook');
    addTransition(store, 1, 10);
    const [row] = d.due('hook', 0, 10);
    d.failed('hook', [row!.outboxId], 0, 'down');
    store.outbox.ack(store.outbox.claim()[0]!.id, 20); // the desktop drainer showed it
    store.pruner.prune(1_000_000);
    expect(d.due('hook', 0, 10)).toEqual([]);
    expect(d.pendingCount('hook')).toBe(0);
    expect(d.nextDueAt('hook')).toBeNull();
    store.close();
  });
});
