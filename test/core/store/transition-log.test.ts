import { describe, expect, it } from 'vitest';
import type { Transition, TransitionKind } from '../../../src/shared/contract';
import { C_CHAIN } from '../helpers';
import { useStore } from './store-rig';

const entry = (messageId: string, kind: TransitionKind, at: number): Omit<Transition, 'id'> => ({
  messageId,
  kind,
  fromStatus: kind === 'new' ? null : 'pending',
  toStatus: kind === 'new' ? 'pending' : 'delivered',
  at,
  network: 'mainnet',
  sourceBlockchainId: C_CHAIN,
  destinationBlockchainId: C_CHAIN,
  watchers: [{ kind: 'address', address: '0xabc' }],
});

describe('TransitionLog (real SQLite)', () => {
  const store = useStore();

  it('logs each (message, kind) once and reads it back as written', () => {
    const id = store().transitions.add(entry('m1', 'new', 10));
    expect(id).toBeTypeOf('number');
    expect(store().transitions.add(entry('m1', 'new', 11))).toBeNull();
    expect(store().transitions.list({})).toEqual([{ id, ...entry('m1', 'new', 10) }]);
  });

  it('filters by kinds, watcher and message, and pages newest first by ID', () => {
    const kinds: TransitionKind[] = ['new', 'left_pending', 'receipt_delivered', 'stuck'];
    for (let i = 0; i < 8; i++) store().transitions.add(entry(`m${i % 2}`, kinds[Math.floor(i / 2)]!, i));
    store().messageWatchers.add('m1', '0xdef', 0, false);
    const all = store().transitions.list({});
    expect(all.map((t) => t.id)).toEqual([...all.map((t) => t.id)].sort((a, b) => b - a));
    expect(all).toHaveLength(8);
    expect(
      new Set(
        store()
          .transitions.list({ kinds: ['stuck'] })
          .map((t) => t.kind),
      ),
    ).toEqual(new Set(['stuck']));
    expect(store().transitions.list({ kinds: ['new', 'stuck'] })).toHaveLength(4);
    expect(store().transitions.list({ kinds: ['new', 'stuck', 'left_pending'] })).toHaveLength(6);
    expect(
      new Set(
        store()
          .transitions.list({ address: '0xdef' })
          .map((t) => t.messageId),
      ),
    ).toEqual(new Set(['m1']));
    expect(
      store()
        .transitions.list({ messageId: 'm0', kinds: ['left_pending'] })
        .map((t) => [t.messageId, t.kind]),
    ).toEqual([['m0', 'left_pending']]);
    const first = store().transitions.list({ limit: 3 });
    const next = store().transitions.list({ limit: 3, beforeId: first[2]!.id });
    expect([...first, ...next].map((t) => t.id)).toEqual(all.slice(0, 6).map((t) => t.id));
  });

  it('prepares each query shape once, however many kinds or values are asked for', () => {
    store().transitions.add(entry('m1', 'new', 1));
    const db = store().db;
    const prepare = db.prepare.bind(db);
    let prepared = 0;
    db.prepare = (sql: string) => {
      prepared++;
      return prepare(sql);
    };
    const all: TransitionKind[] = ['new', 'left_pending', 'receipt_delivered', 'stuck'];
    for (let round = 0; round < 3; round++) {
      for (let n = 1; n <= all.length; n++) store().transitions.list({ kinds: all.slice(0, n), beforeId: 100 + round });
    }
    expect(prepared).toBe(1);
  });
});
