/** The local service store's dictionaries and record writer, each on a real SQLite file without RecordStore. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/sqlite';
import { Dictionaries } from '../../../src/local-service/store/dictionaries';
import { openRecordDb } from '../../../src/local-service/store/record-db';
import { RecordWriter } from '../../../src/local-service/store/record-writer';
import { NET_CODES, POS_PER_SECOND } from '../../../src/local-service/store/schema';

const C_CHAIN = { blockchainId: '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5', evmChainId: '43114' };
const FUJI_C = { blockchainId: 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp', evmChainId: '43113' };
const OTHER = { blockchainId: '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm', evmChainId: '999' };

let dir: string;
let db: Database;
const path = () => join(dir, 'store.sqlite');
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'service-dict-'));
  db = openRecordDb(path());
});
afterEach(() => {
  if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Dictionaries', () => {
  it('gives a chain pair one route, on the network of its source chain, else its destination, else none', () => {
    const d = new Dictionaries(db);
    const r1 = d.routeId(C_CHAIN, OTHER);
    expect(d.routeId(C_CHAIN, OTHER)).toBe(r1);
    expect(d.netOf(r1)).toBe(NET_CODES.mainnet);
    expect(d.netOf(d.routeId(OTHER, FUJI_C))).toBe(NET_CODES.fuji);
    expect(d.netOf(d.routeId(OTHER, OTHER))).toBe(NET_CODES.unknown);
    expect(d.routes).toHaveLength(3);
    expect([...d.chainsMatching({ kind: 'evmChainId', value: '999' })]).toHaveLength(1);
  });

  it('keeps addresses by ID, finds them in any letter case, and reads everything back from the file', () => {
    const d = new Dictionaries(db);
    const id = d.addressId('0xabcdef0000000000000000000000000000000001');
    expect(d.knownAddress('0xABCDEF0000000000000000000000000000000001')).toBe(id);
    expect(d.knownAddress('0x0000000000000000000000000000000000000002')).toBeUndefined();
    const route = d.routeId(C_CHAIN, FUJI_C);
    const again = new Dictionaries(db);
    expect(again.routeId(C_CHAIN, FUJI_C)).toBe(route);
    expect(again.knownAddress('0xabcdef0000000000000000000000000000000001')).toBe(id);
  });
});

describe('RecordWriter', () => {
  const record = (ts: number, status = 'pending') => ({
    messageId: 'ab'.repeat(32),
    sourceBlockchainId: C_CHAIN.blockchainId,
    destinationBlockchainId: OTHER.blockchainId,
    from: '0x1111111111111111111111111111111111111111',
    to: '0x2222222222222222222222222222222222222222',
    status,
    sourceTransaction: { timestamp: ts },
  });
  const positions = () => db.prepare<[], number>('SELECT pos FROM messages').pluck().all();

  it('adds a record at its second, replaces it in place while its time holds, and moves it when its time changes', () => {
    const w = new RecordWriter(db, new Dictionaries(db));
    expect(w.write(record(100), false)).toBe('added');
    expect(positions()).toEqual([100 * POS_PER_SECOND]);
    expect(w.write(record(100, 'delivered'), false)).toBe('replaced');
    expect(positions()).toEqual([100 * POS_PER_SECOND]);
    expect(db.prepare<[], string>('SELECT status FROM messages').pluck().get()).toBe('delivered');
    expect(w.write(record(200, 'delivered'), false)).toBe('replaced');
    expect(positions()).toEqual([200 * POS_PER_SECOND]);
  });

  it('refuses a record it cannot index, with the field that is wrong', () => {
    const w = new RecordWriter(db, new Dictionaries(db));
    expect(() => w.write({ status: 'pending' }, false)).toThrow(/Cannot store record: messageId/);
    expect(positions()).toEqual([]);
  });
});
