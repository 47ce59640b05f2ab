// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { isReactive } from 'vue';
import { ownConnection } from '../../src/renderer/src/connection';
import { useStatusStore } from '../../src/renderer/src/stores/status';
import { useCacheStore } from '../../src/renderer/src/stores/cache';
import { CACHE_PAGE } from '../../src/renderer/src/logic/cache-page';
import { useChartsStore } from '../../src/renderer/src/stores/charts';
import { SEARCH_COUNT_CAP } from '../../src/core/store/cache-search';
import { type RealRenderer, fillCache, setupRealRenderer, until } from './real-core';

const HOUR = 3_600_000;

/** The real cache, filled by a poll, holding every message sent (up to the count cap). */
async function cacheMessages(r: RealRenderer, beam: number, dfk: number): Promise<void> {
  await fillCache(r, beam, dfk);
  expect((await r.api.searchCache({ limit: 1 })).total).toBe(Math.min(beam + dfk, SEARCH_COUNT_CAP));
}

describe('status store (real core)', () => {
  it('knows when data is simulated, follows poll-status events and shows rate limiting until its time', async () => {
    const { api, clock, core, transport } = await setupRealRenderer();
    const s = useStatusStore();
    const owner = ownConnection(null);
    await owner.ready;
    expect(s.simulated).toBe(true);
    s.startTicker();
    const status = await api.getPollStatus();
    transport.fromShell({ type: 'poll-status', status: { ...status, state: 'rate_limited', rateLimitedUntil: clock.now() + 5000 } });
    expect(s.poll?.state).toBe('rate_limited');
    expect(s.rateLimitedUntil).toBe(clock.now() + 5000);
    await clock.advance(6000);
    expect(s.rateLimitedUntil).toBeNull();
    s.stopTicking();
    // The core's own settings-changed event moves the data source: the banner's app info is read again.
    expect(await core.invoke('updateSettings', { dataSource: { kind: 'custom', baseUrl: 'http://127.0.0.1:9' } })).toMatchObject({ ok: true });
    await until(() => expect(s.simulated).toBe(false));
    owner.stop();
  });
});

describe('cache store (real core)', () => {
  it('searches a lone keystroke at once and collapses fast typing into one follow-up for the last text', async () => {
    const r = await setupRealRenderer();
    await cacheMessages(r, 100, 50);
    const s = useCacheStore();
    const release = r.transport.hold('searchCache');
    const before = r.transport.callsOf('searchCache').length;
    const first = s.setText('b');
    for (const t of ['be', 'bea', 'beam']) void s.setText(t);
    const calls = () => r.transport.callsOf('searchCache').slice(before);
    expect(calls()).toEqual([{ text: 'b', limit: CACHE_PAGE, offset: 0 }]);
    release();
    await first;
    expect(calls()).toEqual([
      { text: 'b', limit: CACHE_PAGE, offset: 0 },
      { text: 'beam', limit: CACHE_PAGE, offset: 0 },
    ]);
    expect(s.shownText).toBe('beam');
    expect(s.total).toBe(100);
    expect(s.rows).toHaveLength(CACHE_PAGE);
    for (let i = 0; i < 20 && s.rows.length < 100; i++) await s.loadMore();
    expect(s.rows).toHaveLength(100);
    const pages = Math.ceil(100 / CACHE_PAGE);
    expect(calls().slice(2)).toEqual(Array.from({ length: pages - 1 }, (_, i) => ({ text: 'beam', limit: CACHE_PAGE, offset: (i + 1) * CACHE_PAGE })));
    await s.loadMore();
    expect(calls()).toHaveLength(2 + pages - 1); // nothing more to load
  });

  it('keeps slim, frozen rows made from the result rows the core sent', async () => {
    const r = await setupRealRenderer();
    await cacheMessages(r, 10, 2 * CACHE_PAGE + 5);
    const s = useCacheStore();
    await s.setText('dfk');
    await s.loadMore();
    expect(s.rows).toHaveLength(2 * CACHE_PAGE);
    expect(isReactive(s.rows[0])).toBe(false);
    expect(Object.isFrozen(s.rows[0])).toBe(true);
    const sent = await r.api.searchCache({ text: 'dfk', limit: 2 * CACHE_PAGE });
    s.rows.forEach((row, i) => {
      expect(row.index).toBe(i);
      expect(row.messageId).toBe(sent.items[i]!.messageId);
      expect(row.status).toBe(sent.items[i]!.status);
      expect(row.route).toMatch(/ → DFK Chain$/);
    });
  });

  it('keeps loading past a capped count while pages come back full', async () => {
    const r = await setupRealRenderer();
    const count = SEARCH_COUNT_CAP + 30;
    await cacheMessages(r, count, 0);
    const s = useCacheStore();
    await s.search();
    expect(s.total).toBe(SEARCH_COUNT_CAP);
    expect(s.totalCapped).toBe(true);
    for (let i = 0; i < 40 && s.rows.length < count; i++) await s.loadMore();
    expect(s.rows).toHaveLength(count);
    const calls = r.transport.callsOf('searchCache').length;
    await s.loadMore();
    expect(r.transport.callsOf('searchCache')).toHaveLength(calls); // the last page was short: that was all
  });

  it('never lets an older answer overwrite a newer one', async () => {
    const r = await setupRealRenderer();
    await cacheMessages(r, 30, 10);
    const s = useCacheStore();
    const release = r.transport.hold('searchCache');
    s.text = 'dfk';
    const slow = s.search();
    s.text = 'beam';
    await s.search();
    release();
    await slow;
    expect(s.shownText).toBe('beam');
    expect(s.total).toBe(30);
  });
});

describe('charts store (real core)', () => {
  it('loads stats for the chosen hours', async () => {
    const { transport } = await setupRealRenderer();
    const s = useChartsStore();
    await s.load(6);
    expect(transport.callsOf('getStats')).toEqual([{ hours: 6 }]);
    // The core's buckets (not a count a fake made up): they cover the six hours, oldest first.
    const { buckets, bucketMs } = s.stats!;
    expect(buckets.length * bucketMs).toBeGreaterThanOrEqual(6 * HOUR);
    expect(buckets.map((b) => b.start)).toEqual([...buckets.map((b) => b.start)].sort((a, b) => a - b));
    await s.load(0);
    expect(s.error?.kind).toBe('invalid_input');
  });
});
