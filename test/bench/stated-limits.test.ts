/**
 * bench/stated-limits.ts on a real store: a `stuck` below the first BASELINE_MAX_PAGES pages of every
 * watched list it is on is under the baseline's reach limit, one within any list's reach is not; a receipt
 * of a message delivered before the watch is under the baselining limit only while a watch of it was
 * still baselining. Under a limit a transition is either way, and counted apart when not reported.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { markStatedLimits } from '../../bench/stated-limits';
import { RecordStore } from '../../src/local-service/store/record-store';
import { CHAIN_REGISTRY } from '../../src/shared/chains';
import { BASELINE_MAX_PAGES } from '../../src/shared/policy';
import { compare, GroundTruth, type ExpectedTransition } from '../support/ground-truth';

const [src, dst] = CHAIN_REGISTRY.chains.filter((c) => c.network === 'mainnet');
const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';
const Z = '0x00000000000000000000000000000000000000ff';
const BASELINE_AT = 10_000_000_000;
const baseS = BASELINE_AT / 1000;

const record = (id: string, from: string, to: string, sentS: number, deliveredS?: number) => ({
  messageId: id,
  sourceBlockchainId: src!.blockchainId,
  destinationBlockchainId: dst!.blockchainId,
  from,
  to,
  status: deliveredS === undefined ? 'pending' : 'delivered',
  receiptDelivered: false,
  sourceTransaction: { timestamp: sentS },
  ...(deliveredS === undefined ? {} : { destinationTransaction: { timestamp: deliveredS } }),
});

describe('markStatedLimits', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('marks only what the baseline reach and the baselining time cover, from the store and the truth', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-limits-'));
    dirs.push(dir);
    const store = new RecordStore(join(dir, 'store.db'));
    const reach = BASELINE_MAX_PAGES * 100;
    // A's list: reach + 100 messages to nobody watched, one a second, newest 10 s before the watch.
    store.upsertMany(Array.from({ length: reach + 100 }, (_, k) => record(`a${k}`, A, Z, baseS - 10 - k)));
    // Below A's reach: on A only (beyond), and on A and B, whose list is short (within B's reach).
    store.upsertMany([record('deepA', A, Z, baseS - 10 - reach - 50), record('deepAB', A, B, baseS - 10 - reach - 50)]);
    // Delivered before the watch, its receipt back after it.
    store.upsertMany([record('rcpt', A, Z, baseS - 30, baseS - 20)]);
    const truth = new GroundTruth();
    const expected = new Map<string, ExpectedTransition>([
      ['deepA:stuck', { happenedAt: BASELINE_AT + 60_000, visibleAt: BASELINE_AT + 60_000 }],
      ['deepAB:stuck', { happenedAt: BASELINE_AT + 60_000, visibleAt: BASELINE_AT + 60_000 }],
      ['a5:stuck', { happenedAt: BASELINE_AT + 60_000, visibleAt: BASELINE_AT + 60_000 }],
      ['rcpt:receipt_delivered', { happenedAt: BASELINE_AT + 5_000, visibleAt: BASELINE_AT + 5_000 }],
    ]);
    const live = (at: number) => (a: string) => (a.toLowerCase() === A ? at : BASELINE_AT);
    const early = new Map(expected);
    expect(markStatedLimits(early, { store, truth, baselineAt: BASELINE_AT, liveAt: live(BASELINE_AT + 30_000), addresses: [A, B] })).toEqual({
      'baseline-reach': 1,
      'baseline-receipt': 1,
    });
    expect(early.get('deepA:stuck')?.limit).toBe('baseline-reach');
    expect(early.get('deepAB:stuck')?.limit).toBeUndefined();
    expect(early.get('a5:stuck')?.limit).toBeUndefined();
    expect(early.get('rcpt:receipt_delivered')?.limit).toBe('baseline-receipt');
    // A went live before the receipt came back: its baseline met the message open, so the receipt is owed.
    const late = new Map(expected);
    markStatedLimits(late, { store, truth, baselineAt: BASELINE_AT, liveAt: live(BASELINE_AT + 1_000), addresses: [A, B] });
    expect(late.get('rcpt:receipt_delivered')?.limit).toBeUndefined();

    // Under a limit: either way, counted apart when not reported; the rest still missed.
    const judged = compare(early, [{ id: 'rcpt', kind: 'receipt_delivered', at: BASELINE_AT + 40_000 }]);
    expect(judged.limits).toEqual({ 'baseline-reach': 1 });
    expect(judged.missed.sort()).toEqual(['a5:stuck', 'deepAB:stuck']);
    expect(judged.hits.map((h) => h.key)).toEqual(['rcpt:receipt_delivered']);
  });
});
