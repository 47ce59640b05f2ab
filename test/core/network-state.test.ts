/** Per-network state: the head cursor survives a restart (a real SQLite file), per data source; the rate follows the scans. */
import { afterEach, describe, expect, it } from 'vitest';
import { NetworkStates, nextRate } from '../../src/core/poller/network-state';
import { emptyScan, type ScanResult } from '../../src/core/poller/scan';
import { openStore, type Store } from '../../src/core/store';
import { tempDir } from './helpers';

const scanned = (o: Partial<ScanResult>): ScanResult => ({ ...emptyScan(), pages: 1, ...o });

let tmp: ReturnType<typeof tempDir> | null = null;
let store: Store | null = null;
afterEach(() => {
  store?.close();
  tmp?.cleanup();
  store = tmp = null;
});

describe('NetworkStates', () => {
  it('measures the density of the history a firehose read of 2 pages or more covered (what paging deeper costs)', () => {
    tmp = tempDir();
    store = openStore(tmp.dir);
    const states = new NetworkStates(store.pollState);
    const s = states.get('mainnet', 'http://127.0.0.1:2');
    states.afterHeadScan(s, scanned({ pages: 1, newestTs: 1_000, oldestTs: 990, count: 100 }), 5_000_000);
    expect(s.densityPerSec).toBeNull(); // one page says how fast news comes, not how deep history is
    // Cut short by the budget, it still measured 300 messages over 150 s.
    states.afterHeadScan(s, scanned({ pages: 3, newestTs: 1_000, oldestTs: 850, count: 300, outOfBudget: true }), 5_010_000);
    expect(s.densityPerSec).toBe(2);
    states.afterTrail(s, { token: null, floorTs: 0, startedAt: 5_010_000 }, scanned({ pages: 2, newestTs: 800, oldestTs: 400, count: 200 }));
    expect(s.densityPerSec).toBe(0.5);
  });

  it('keeps the head cursor of each network and data source across a restart, and only from a scan that completed', () => {
    tmp = tempDir();
    store = openStore(tmp.dir);
    const states = new NetworkStates(store.pollState);
    const main = states.get('mainnet', 'http://127.0.0.1:1');
    expect(main).toMatchObject({ network: 'mainnet', source: 'http://127.0.0.1:1', head: null, ratePerSec: null, mode: null, lastError: null, trail: null });
    expect(states.get('mainnet', 'http://127.0.0.1:1')).toBe(main); // one record, not copies
    states.afterHeadScan(main, scanned({ newestTs: 1_000, oldestTs: 901, count: 100 }), 5_000_000);
    expect(main.head).toEqual({ ts: 1_000, at: 5_000_000 });
    expect(main.ratePerSec).toBe(1);
    // A scan cut short (an error or the budget) still teaches the rate but leaves the cursor where it was.
    states.afterHeadScan(main, scanned({ newestTs: 1_200, oldestTs: 1_101, count: 100, error: { kind: 'server', message: '502' } }), 5_010_000);
    expect(main.head).toEqual({ ts: 1_000, at: 5_000_000 });
    expect(main.ratePerSec).toBe(1);
    // An older newest timestamp never moves the cursor back.
    states.afterHeadScan(main, scanned({ newestTs: 990, oldestTs: 950, count: 10 }), 5_020_000);
    expect(main.head).toEqual({ ts: 1_000, at: 5_020_000 });

    store.close();
    store = openStore(tmp.dir);
    const again = new NetworkStates(store.pollState);
    expect(again.get('mainnet', 'http://127.0.0.1:1').head).toEqual({ ts: 1_000, at: 5_020_000 });
    expect(again.get('mainnet', 'http://127.0.0.1:2').head).toBeNull(); // another data source starts fresh
    expect(again.get('fuji', 'http://127.0.0.1:1').head).toBeNull();
  });
});

describe('nextRate', () => {
  it('counts what arrived since the cursor when the scan reached below it, else what one span of pages holds', () => {
    const head = { ts: 1_000, at: 100_000 };
    // 50 messages newer than the cursor over the 10 s since it.
    expect(nextRate(null, scanned({ newestTs: 1_010, oldestTs: 990, count: 60, newer: 50 }), head, 110_000)).toBe(5);
    // Not below the cursor: 100 messages over 50 s of timestamps, averaged with the last estimate.
    expect(nextRate(4, scanned({ newestTs: 1_059, oldestTs: 1_010, count: 100 }), head, 110_000)).toBe(3);
    // Nothing dated: the estimate stays.
    expect(nextRate(4, scanned({}), head, 110_000)).toBe(4);
  });

  it('in echo mode a read from the top cut short moves the cursor and owes the part it did not reach; the stored cursor stays below it until it is read', () => {
    tmp = tempDir();
    store = openStore(tmp.dir);
    const states = new NetworkStates(store.pollState);
    const url = 'http://127.0.0.1:4';
    const key = `head:${url}:mainnet`;
    const s = states.get('mainnet', url);
    states.afterHeadScan(s, scanned({ newestTs: 1_000, oldestTs: 990, count: 100 }), 5_000_000);
    // Out of echo mode a read cut short keeps the cursor: the next cycle reads that far again.
    const cut = scanned({ pages: 3, newestTs: 1_300, oldestTs: 900, count: 300, outOfBudget: true, nextToken: 'p4' });
    states.afterHeadScan(s, cut, 5_030_000, 700);
    expect(s.head).toEqual({ ts: 1_000, at: 5_000_000 });
    expect(s.echoes).toEqual([]);
    // Echo mode, meant to read down to 700, the budget stopped it at 900: the cursor moves on, 900..700 is owed from its token.
    states.afterHeadScan(s, cut, 5_030_000, 700, true);
    expect(s.head).toEqual({ ts: 1_300, at: 5_030_000 });
    expect(s.echoes).toContainEqual(expect.objectContaining({ token: 'p4', floorTs: 700, gap: true }));
    expect(states.behindMs(5_060_000)).toBe(30_000);
    // A restart now reads that part again: the stored cursor is at or below its floor.
    expect(store.pollState.get<{ ts: number }>(key)?.ts).toBeLessThanOrEqual(700);
    // Read down past its floor: the gap is no longer owed.
    const gap = s.echoes.find((e) => e.gap)!;
    states.afterEcho(s, gap, scanned({ pages: 2, newestTs: 899, oldestTs: 650, count: 200, nextToken: 'p6' }), false);
    expect(s.echoes.some((e) => e.gap)).toBe(false);
  });
});
