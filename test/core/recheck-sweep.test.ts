/**
 * echoes.ts' recheckSweep: when due messages below a read from the top are re-read by one sweep of the
 * list (a page per 100) instead of one request each. Cheaper by the page and within this cycle's room:
 * now; cheaper but longer than the room while the cycle can ask them all: by ID at once (a sweep over
 * cycles would make them later); more than the cycle can ask: the sweep, over cycles; dearer by the page: by ID.
 */
import { describe, expect, it } from 'vitest';
import { echoReadOrder, recheckSweep, type Echo } from '../../src/core/poller/echoes';
import { emptyScan, type ScanResult } from '../../src/core/poller/scan';

const NOW_S = 1_767_225_600;
/** A read from the top that stopped at NOW_S − 60 with a next page. */
const head: ScanResult = { ...emptyScan(), pages: 2, oldestTs: NOW_S - 60, newestTs: NOW_S, nextToken: 'p3' };
/** `n` due messages spread evenly from 70 s below now down to `spanS` seconds below that. */
const due = (n: number, spanS: number) => Array.from({ length: n }, (_, k) => ({ messageId: `m${k}`, ts: NOW_S - 70 - Math.floor((k * spanS) / n) }));

describe('recheckSweep', () => {
  // 50 due over 400 s at 1 message/s: 400 records, 5 pages down to the oldest.
  const fifty = due(50, 400);

  it('sweeps now when the pages are fewer and fit this cycle', () => {
    const s = recheckSweep(head, fifty, 1, NOW_S * 1000, 100, 10);
    expect(s).toMatchObject({ token: 'p3', recheck: true, gap: true, floorTs: Math.min(...fifty.map((c) => c.ts)) });
  });

  it('asks by ID when the sweep would take more than this cycle and the cycle can ask them all', () => {
    expect(recheckSweep(head, fifty, 1, NOW_S * 1000, 100, 3)).toBeNull();
  });

  it('sweeps over cycles when the cycle cannot ask them all', () => {
    expect(recheckSweep(head, fifty, 1, NOW_S * 1000, 10, 0)).not.toBeNull();
  });

  it('asks by ID when that is fewer requests than the pages', () => {
    // 50 due over 400 s at 20 messages/s: 81 pages.
    expect(recheckSweep(head, fifty, 20, NOW_S * 1000, 10, 100)).toBeNull();
  });
});

describe('echoReadOrder', () => {
  it('reads the spans owed first, oldest first, and the re-check sweeps after them', () => {
    const e = (token: string, recheck = false): Echo => ({
      token,
      floorTs: 0,
      topTs: 1,
      readAt: 0,
      gap: recheck,
      early: recheck,
      ...(recheck ? { recheck: true as const } : {}),
    });
    const order = echoReadOrder([e('sweep', true), e('span1'), e('gap'), e('span2')]).map((x) => x.token);
    expect(order).toEqual(['span1', 'gap', 'span2', 'sweep']);
  });
});
