/** The SQLite store on real files: ordering, updates, raw records, rollbacks, plans, persistence. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RecordStore } from '../../src/local-service/store/record-store';
import { loadSqlite } from '../../src/sqlite';
import { planScans, type Conjunction } from '../../src/local-service/store/scan-plan';
import { MESSAGE_INDEXES } from '../../src/local-service/store/schema';
import { ManualClock } from '../../src/shared/clock';
import { get, serve } from './helpers';

const C_CHAIN = { blockchainId: '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5', evm: '43114' };
const BEAM = { blockchainId: '2tmrrBo1Lgt1mzzvPSFt73kkQKFas5d1AP88tv9cicwoFp8BSn', evm: '4337' };
const A = '0x1111111111111111111111111111111111111111';
const B = '0x2222222222222222222222222222222222222222';

function rec(
  id: number,
  o: { src?: number; dst?: number; from?: string; to?: string; status?: string; chains?: [typeof C_CHAIN, typeof C_CHAIN] } = {},
): Record<string, unknown> {
  const [s, d] = o.chains ?? [C_CHAIN, BEAM];
  const r: Record<string, unknown> = {
    messageId: id.toString(16).padStart(64, '0'),
    sourceBlockchainId: s.blockchainId,
    destinationBlockchainId: d.blockchainId,
    sourceEvmChainId: s.evm,
    destinationEvmChainId: d.evm,
    from: o.from ?? A,
    to: o.to ?? B,
    status: o.status ?? 'pending',
  };
  if (o.src !== undefined) r.sourceTransaction = { txHash: '0x' + '1'.repeat(64), timestamp: o.src, gasSpent: '1' };
  if (o.dst !== undefined)
    r.destinationTransaction = { txHash: '0x' + '2'.repeat(64), timestamp: o.dst, gasSpent: '1', rewardRedeemer: A, delivererAddress: A };
  return r;
}

let dir: string;
let store: RecordStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'service-store-'));
  store = new RecordStore(join(dir, 'store.sqlite'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const idsOf = (p: { records: string[] }) => p.records.map((r) => (JSON.parse(r) as { messageId: string }).messageId.replace(/^0+/, ''));

describe('ordering', () => {
  it('sorts by source time, else destination time, newest first; ties put the later insert first', () => {
    store.upsertMany([rec(1, { src: 100 }), rec(2, { dst: 150 }), rec(3, { src: 120, dst: 500 }), rec(4, { src: 120 }), rec(5, { src: 90, dst: 95 })]);
    expect(idsOf(store.page({}, undefined, 10))).toEqual(['2', '4', '3', '1', '5']);
  });

  it('keeps the position on an update that keeps the timestamp, and moves a record whose timestamp changed', () => {
    store.upsertMany([rec(1, { src: 100 }), rec(2, { src: 200 }), rec(3, { dst: 300 })]);
    store.upsert({ ...rec(1, { src: 100, dst: 900, status: 'delivered' }) });
    expect(idsOf(store.page({}, undefined, 10))).toEqual(['3', '2', '1']);
    // The source transaction of 3 became known: it now sorts by its (earlier) source time.
    store.upsert(rec(3, { src: 150, dst: 300, status: 'delivered' }));
    expect(idsOf(store.page({}, undefined, 10))).toEqual(['2', '3', '1']);
    expect(store.count()).toBe(3);
    expect(store.get('3'.padStart(64, '0'))).toMatchObject({ status: 'delivered' });
  });
});

describe('records', () => {
  it('keeps unknown statuses and extra fields exactly as given, and serves them over HTTP', async () => {
    const s = await serve({ clock: new ManualClock() });
    const odd = { ...rec(7, { src: 1_700_000_000 }), status: 'retrying', extra: { nested: [1, 'two'] }, data: '0xdead' };
    s.store.upsert(odd);
    const r = await get(`${s.url}/v1/teleporter/messages`);
    expect(r.json).toEqual({ messages: [odd] });
    expect(r.text).toBe(`{"messages":[${JSON.stringify(odd)}]}`);
  });

  it('serves non-ASCII text byte-exact with the right content-length, across pieces of a 100-record page', async () => {
    const s = await serve({ clock: new ManualClock() });
    const records = Array.from({ length: 40 }, (_, i) => ({ ...rec(i + 1, { src: 1_700_000_000 + i }), note: `Ünïcødé ✓ 🚀 ${i}` }));
    s.store.upsertMany(records);
    const r = await get(`${s.url}/v1/teleporter/messages?pageSize=100`);
    expect(Number(r.headers.get('content-length'))).toBe(Buffer.byteLength(r.text));
    expect(r.json).toEqual({ messages: [...records].reverse() });
  });

  it('refuses a record without a messageId with a clear error, and a failed batch changes nothing', () => {
    store.upsert(rec(1, { src: 10 }));
    const unknownChain = { blockchainId: '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm', evm: '999' };
    expect(() =>
      store.upsertMany([rec(2, { src: 20, chains: [unknownChain, unknownChain], from: '0x3333333333333333333333333333333333333333' }), { from: A }]),
    ).toThrow('Cannot store record: messageId: Invalid input: expected string, received undefined.');
    expect(store.count()).toBe(1);
    expect(store.page({ source: { kind: 'blockchainId', value: unknownChain.blockchainId } }, undefined, 10).records).toEqual([]);
    expect(store.page({ from: '0x3333333333333333333333333333333333333333' }, undefined, 10).records).toEqual([]);
    // The dictionaries were re-read after the rollback: the same chain and address work afterwards.
    store.upsert(rec(2, { src: 20, chains: [unknownChain, unknownChain], from: '0x3333333333333333333333333333333333333333' }));
    expect(idsOf(store.page({ source: { kind: 'evmChainId', value: '999' }, from: '0x3333333333333333333333333333333333333333' }, undefined, 10))).toEqual([
      '2',
    ]);
  });

  it('gives messages on chains outside the registry no network', () => {
    const other = { blockchainId: '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm', evm: '999' };
    store.upsertMany([rec(1, { src: 10 }), rec(2, { src: 20, chains: [other, other] }), rec(3, { src: 30, chains: [other, C_CHAIN] })]);
    expect(idsOf(store.page({ network: 'mainnet' }, undefined, 10))).toEqual(['3', '1']); // 3 reaches the C-Chain
    expect(idsOf(store.page({ network: 'fuji' }, undefined, 10))).toEqual([]);
    expect(idsOf(store.page({ blockchainId: other.blockchainId }, undefined, 10))).toEqual(['3', '2']);
  });
});

describe('pages as joined JSON pieces (what the HTTP layer sends)', () => {
  const other = { blockchainId: '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm', evm: '999' };
  const queries = [
    {},
    { network: 'mainnet' as const },
    { from: A },
    { to: A },
    { address: A },
    { blockchainId: BEAM.blockchainId },
    { source: { kind: 'evmChainId' as const, value: '999' } },
  ];

  it('holds the same records in the same order as page(), on every page of a walk', () => {
    // Mixed routes, senders and recipients, and equal timestamps (ties), so walks merge several scans.
    store.upsertMany(
      Array.from({ length: 137 }, (_, i) =>
        rec(i + 1, {
          src: 1000 + Math.floor(i / 3),
          from: i % 2 ? A : B,
          to: i % 3 ? B : A,
          chains: i % 5 === 0 ? [other, C_CHAIN] : i % 5 === 1 ? [BEAM, C_CHAIN] : [C_CHAIN, BEAM],
        }),
      ),
    );
    for (const q of queries) {
      for (const size of [1, 7, 100]) {
        let before: number | undefined;
        let pages = 0;
        do {
          const p = store.page(q, before, size);
          const j = store.pageJson(q, before, size);
          expect(j.json.join(',')).toBe(p.records.join(','));
          expect(JSON.parse(`[${j.json.join(',')}]`)).toHaveLength(p.records.length);
          expect(j.json.length).toBe(Math.ceil(p.records.length / 16)); // small pieces, never one large string
          expect({ count: j.count, last: j.last, hasMore: j.hasMore }).toEqual({
            count: p.records.length,
            last: p.positions[p.positions.length - 1],
            hasMore: p.hasMore,
          });
          before = j.last;
          pages++;
        } while (store.pageJson(q, before, size).count > 0 && pages < 200);
      }
    }
  });

  it('falls back to a sorted read if SQLite ever concatenates in another order', () => {
    store.upsertMany([rec(1, { src: 10 }), rec(2, { src: 20 }), rec(3, { src: 30 })]);
    const expected = store.page({}, undefined, 10).records.join(',');
    const stmts = (store as unknown as { reader: { stmts: { jsonAt: { get: (list: string) => { positions: string; json: string } } } } }).reader.stmts;
    const real = stmts.jsonAt.get.bind(stmts.jsonAt);
    stmts.jsonAt.get = (list) => {
      const row = real(list);
      return { positions: row.positions.split(',').reverse().join(','), json: 'wrong order' };
    };
    expect(store.pageJson({}, undefined, 10).json.join(',')).toBe(expected);
  });

  it('is empty when nothing matches', () => {
    store.upsert(rec(1, { src: 10 }));
    expect(store.pageJson({ from: '0x3333333333333333333333333333333333333333' }, undefined, 10)).toEqual({
      json: [],
      count: 0,
      last: undefined,
      hasMore: false,
    });
    expect(store.pageJson({ network: 'fuji' }, undefined, 10).count).toBe(0);
  });

  it('keeps non-ASCII text byte-exact', () => {
    const r = { ...rec(1, { src: 10 }), note: 'Ünïcødé ✓ 🚀' };
    store.upsert(r);
    expect(JSON.parse(`[${store.pageJson({}, undefined, 10).json.join(',')}]`)).toEqual([r]);
  });
});

describe('persistence', () => {
  it('reopens the same file with the same data and page secret', () => {
    store.upsertMany([rec(1, { src: 10 }), rec(2, { src: 20 })]);
    const secret = store.secret('pageTokenSecret');
    store.close();
    store = new RecordStore(join(dir, 'store.sqlite'));
    expect(store.count()).toBe(2);
    expect(idsOf(store.page({ from: A }, undefined, 10))).toEqual(['2', '1']);
    expect(store.secret('pageTokenSecret')).toEqual(secret);
    store.close(); // the store holds the file's lock while open (one writer per file)
    // Read back with Node's own driver, not through the store's seam.
    const { DatabaseSync } = loadSqlite();
    const db = new DatabaseSync(join(dir, 'store.sqlite'), { readOnly: true });
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect(db.prepare('PRAGMA page_size').get()).toEqual({ page_size: 8192 });
    db.close();
  });

  it('refuses a database of another schema version with advice', () => {
    store.setMeta('schemaVersion', '99');
    store.close();
    const path = join(dir, 'store.sqlite');
    expect(() => (store = new RecordStore(path))).toThrow(
      `Database ${path} has schema version 99; this service needs 1. Use another --db file or delete this one.`,
    );
    store = new RecordStore(join(dir, 'fresh.sqlite'));
  });

  it('bulk-loads into an empty store with indexes built afterwards', () => {
    store.bulkLoad(() => store.upsertMany(Array.from({ length: 500 }, (_, i) => rec(i + 1, { src: 1000 + i, from: i % 2 ? A : B }))));
    expect(store.count()).toBe(500);
    expect(store.page({ from: A, network: 'mainnet' }, undefined, 3).records).toHaveLength(3);
    for (const ix of MESSAGE_INDEXES) expect(store.explainScan(ix)[0]).toContain(`USING COVERING INDEX ${ix.name}`);
    expect(() => store.upsert(rec(1, { src: 1000 }))).not.toThrow(); // the unique ID index is back: an upsert, not a duplicate
    expect(store.count()).toBe(500);
  });
});

describe('query plans', () => {
  it('every index is read as one range scan in position order, with no sort step', () => {
    for (const ix of MESSAGE_INDEXES) {
      const range = `(${ix.cols.map((c) => `${c}=?`).join(' AND ')} AND rowid<?)`;
      expect(store.explainScan(ix)).toEqual([`SEARCH messages USING COVERING INDEX ${ix.name} ${range}`]);
    }
  });

  it("a page's records are read by position (rowid lookups), never by scanning the table, and without a sort step", () => {
    for (const sorted of [false, true]) {
      const plan = store.explainPageJson(sorted);
      expect(plan).toContain('SEARCH messages USING INTEGER PRIMARY KEY (rowid=?)');
      expect(plan.some((d) => d.startsWith('SCAN messages'))).toBe(false);
    }
    expect(store.explainPageJson().some((d) => d.includes('TEMP B-TREE'))).toBe(false); // the fallback sorts
  });

  it('every combination of filters has an exact plan whose scan count is bounded by the routes', () => {
    const universe = { routes: Array.from({ length: 32 }, (_, i) => ({ id: i + 1, net: i < 20 ? 0 : 1 })) };
    for (let mask = 0; mask < 16; mask++) {
      const c: Conjunction = {};
      if (mask & 1) c.net = [0];
      if (mask & 2) c.routes = [3, 4, 5];
      if (mask & 4) c.frm = 7;
      if (mask & 8) c.too = 9;
      if (c.routes) delete c.net; // routes already carry their network
      const plan = planScans(c, universe, MESSAGE_INDEXES)!;
      expect(plan).not.toBeNull();
      if (mask === 0) expect(plan.index).toBeNull();
      else {
        expect(plan.index!.cols.includes('frm')).toBe(c.frm !== undefined);
        expect(plan.index!.cols.includes('too')).toBe(c.too !== undefined);
      }
      expect(plan.scans.length).toBeLessThanOrEqual(c.routes ? 3 : 2);
    }
    expect(planScans({ routes: [] }, universe, MESSAGE_INDEXES)).toBeNull();
  });
});
