import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/core/store';
import { MIGRATIONS } from '../../../src/core/store/migrations';
import type { Transition, TransitionKind } from '../../../src/shared/contract';
import { Database } from '../../../src/sqlite';
import { C_CHAIN, tempDir } from '../helpers';
import { useStore } from './store-rig';

const entry = (messageId: string, kind: TransitionKind, at: number): Omit<Transition, 'id'> => ({
  messageId,
  kind,
  fromStatus: kind === 'new' ? null : 'pending',
  toStatus: kind === 'new' ? 'pending' : 'delivered',
  at,
  network: 'mainnet',
  source: 'local',
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

describe('TransitionLog rounds: a reorg that undoes a delivery or receipt (own nodes)', () => {
  const store = useStore();

  it('logs the re-delivery and the re-receipt once more after each undo, never twice in a round', () => {
    const log = store().transitions;
    expect(log.add(entry('m1', 'left_pending', 1))).toBeTypeOf('number');
    expect(log.add(entry('m1', 'left_pending', 2))).toBeNull();
    expect(log.add(entry('m1', 'receipt_delivered', 3))).toBeTypeOf('number');
    expect(log.add(entry('m1', 'delivery_undone', 4))).toBeTypeOf('number');
    // A new round for delivery-side kinds only.
    expect(log.add(entry('m1', 'left_pending', 5))).toBeTypeOf('number');
    expect(log.add(entry('m1', 'left_pending', 6))).toBeNull();
    expect(log.add(entry('m1', 'stuck', 7))).toBeTypeOf('number');
    expect(log.add(entry('m1', 'receipt_delivered', 8))).toBeNull();
    expect(log.add(entry('m1', 'receipt_undone', 9))).toBeTypeOf('number');
    expect(log.add(entry('m1', 'receipt_delivered', 10))).toBeTypeOf('number');
    // A second undo is its own round too.
    expect(log.add(entry('m1', 'delivery_undone', 11))).toBeTypeOf('number');
    expect(log.add(entry('m1', 'left_pending', 12))).toBeTypeOf('number');
    expect(log.list({ messageId: 'm1' }).map((t) => t.kind)).toEqual([
      'left_pending',
      'delivery_undone',
      'receipt_delivered',
      'receipt_undone',
      'stuck',
      'left_pending',
      'delivery_undone',
      'receipt_delivered',
      'left_pending',
    ]);
  });
});

describe('migration 7 (transitions per round)', () => {
  it('keeps every transition of an older database, its ID and its once-only rule', () => {
    const tmp = tempDir('tw-mig7-');
    try {
      const db = new Database(join(tmp.dir, 'monitor.sqlite'));
      for (const sql of MIGRATIONS.slice(0, 6)) db.exec(sql);
      db.pragma('user_version = 6');
      db.prepare(
        `INSERT INTO transitions (id, message_id, kind, from_status, to_status, at, network, source_chain, destination_chain, watchers)
         VALUES (41, 'm1', 'left_pending', 'pending', 'delivered', 5, 'mainnet', ?, ?, '["0xabc"]')`,
      ).run(C_CHAIN, C_CHAIN);
      db.close();
      const store = openStore(tmp.dir);
      try {
        expect(store.transitions.list({})).toEqual([{ id: 41, ...entry('m1', 'left_pending', 5) }]);
        expect(store.transitions.add(entry('m1', 'left_pending', 6))).toBeNull();
        expect(store.transitions.add(entry('m1', 'new', 7))).toBeGreaterThan(41); // IDs go on after the kept ones
      } finally {
        store.close();
      }
    } finally {
      tmp.cleanup();
    }
  });
});
