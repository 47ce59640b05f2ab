/**
 * bench/physical-limit.ts on a real store: a record's page is its place in the real mainnet list, a new
 * record is found on the list only, a known one read by ID when that is cheaper than reading down to it,
 * and a cycle with nothing new still reads the head page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { physicalLimit } from '../../bench/physical-limit';
import { RecordStore } from '../../src/local-service/store/record-store';
import { CHAIN_REGISTRY } from '../../src/shared/chains';
import { GroundTruth } from '../support/ground-truth';

const [a, b] = CHAIN_REGISTRY.chains.filter((c) => c.network === 'mainnet');
const fuji = CHAIN_REGISTRY.chains.find((c) => c.network === 'fuji')!;

/** A message sent at `sentS` (its place in the list), pending or delivered. */
const record = (id: string, sentS: number, status: 'pending' | 'delivered', source = a!) => ({
  messageId: id,
  sourceBlockchainId: source.blockchainId,
  destinationBlockchainId: b!.blockchainId,
  from: '0x00000000000000000000000000000000000000aa',
  to: '0x00000000000000000000000000000000000000bb',
  status,
  sourceTransaction: { timestamp: sentS },
});

/** The 1-based page of the real mainnet list (100 a page, newest first) holding `id`. */
function listPage(store: RecordStore, id: string): number {
  let before: number | undefined;
  for (let page = 1; ; page++) {
    const p = store.page({ network: 'mainnet' }, before, 100);
    if (p.records.some((r) => (JSON.parse(r) as { messageId: string }).messageId === id)) return page;
    if (!p.hasMore) throw new Error(`${id} is not on the list`);
    before = p.positions.at(-1);
  }
}

describe('physicalLimit', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('reads the list down to the deepest new record, and a known record by ID or by the list, whichever is fewer', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-physical-'));
    dirs.push(dir);
    const store = new RecordStore(join(dir, 'store.db'));
    // 250 pending mainnet messages stored before the run (r0 the oldest), and 50 on Fuji: not on the mainnet list.
    const old = Array.from({ length: 250 }, (_, i) => record(`r${i}`, 1_000 + i, 'pending'));
    store.upsertMany([...old, ...Array.from({ length: 50 }, (_, i) => record(`f${i}`, 1_000 + i, 'pending', fuji))]);
    const truth = new GroundTruth();
    truth.knowStored(old);
    const change = (r: ReturnType<typeof record>, at: number) => {
      store.upsert(r);
      truth.add([{ record: r, happenedAt: at, visibleAt: at }], () => null);
    };

    // Cycle 1 (at 10 s): one new message at the head; r0, now 251st on the list (page 3), delivered.
    change(record('n1', 2_000, 'pending'), 5_000);
    change(record('r0', 1_000, 'delivered'), 5_000);
    expect(listPage(store, 'n1')).toBe(1);
    expect(listPage(store, 'r0')).toBe(3);
    // Cycle 2 (at 20 s): r1 and r2 (page 3) and r150 (page 2) delivered: reading to page 3 (3) beats the head and 3 by ID (4).
    for (const id of [1, 2, 150]) change(record(`r${id}`, 1_000 + id, 'delivered'), 15_000);
    expect([listPage(store, 'r1'), listPage(store, 'r2'), listPage(store, 'r150')]).toEqual([3, 3, 2]);
    // Cycle 3 (at 30 s): nothing changed.

    const expected = truth.expected({ baselineAt: 0, watched: () => true, network: 'mainnet' });
    expect([...expected.keys()].sort()).toEqual(['n1:new', 'r0:left_pending', 'r150:left_pending', 'r1:left_pending', 'r2:left_pending']);
    const limit = physicalLimit(store, truth, expected, [10_000, 20_000, 30_000], 10_000);
    // Cycle 1: the head page and r0 by ID; cycle 2: 3 pages; cycle 3: the head page.
    expect(limit).toMatchObject({ listPages: 1 + 3 + 1, byId: 1, requests: 6, cycles: 3, minutes: 0.5, perMinute: 12 });
    store.close();
  });
});
