// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { isReactive } from 'vue';
import { useStatusStore } from '../../src/renderer/src/stores/status';
import { useCacheStore } from '../../src/renderer/src/stores/cache';
import { CACHE_PAGE } from '../../src/renderer/src/logic/cache-page';
import { useChartsStore } from '../../src/renderer/src/stores/charts';
import { BEAM, DFK, message } from './fixtures';
import { setupRenderer, flush } from './setup';
import { SEARCH_COUNT_CAP } from './fake-monitor';

describe('status store', () => {
  it('knows when data is simulated, follows poll-status events and shows rate limiting until its time', async () => {
    const { fake, clock } = setupRenderer({ simulated: true });
    const s = useStatusStore();
    await s.load();
    expect(s.simulated).toBe(true);
    s.startTicker();
    s.handleEvent({ type: 'poll-status', status: { ...fake.poll, state: 'rate_limited', rateLimitedUntil: clock.now() + 5000 } });
    expect(s.poll?.state).toBe('rate_limited');
    expect(s.rateLimitedUntil).toBe(clock.now() + 5000);
    await clock.advance(6000);
    expect(s.rateLimitedUntil).toBeNull();
    s.stopTicking();
    fake.settings = { ...fake.settings, dataSource: { kind: 'avalanche' } };
    s.handleEvent({ type: 'settings-changed', settings: fake.settings });
    await flush();
    expect(s.simulated).toBe(false);
  });

  it('resynchronises when the event socket comes back', async () => {
    const { fake } = setupRenderer();
    const s = useStatusStore();
    s.setConnection({ state: 'connecting', retryAt: null, attempts: 0 });
    s.setConnection({ state: 'open', retryAt: null, attempts: 0 }); // first connect: main.ts loads anyway
    s.setConnection({ state: 'closed', retryAt: 1, attempts: 1 });
    await flush();
    expect(fake.calls).toEqual([]);
    s.setConnection({ state: 'open', retryAt: null, attempts: 0 });
    await flush();
    expect(fake.calls.map((c) => c.method).sort()).toEqual(['getAppInfo', 'getPollStatus']);
  });
});

describe('cache store', () => {
  const cached = Array.from({ length: 450 }, (_, i) => ({ message: message({ n: i + 1, dst: i < 300 ? BEAM : DFK }), network: 'mainnet' as const }));

  it('searches a lone keystroke at once and collapses fast typing into one follow-up for the last text', async () => {
    const { fake } = setupRenderer({ messages: cached });
    const s = useCacheStore();
    const release = fake.hold('searchCache');
    const first = s.setText('b');
    for (const t of ['be', 'bea', 'beam']) void s.setText(t);
    expect(fake.callsOf('searchCache')).toEqual([{ text: 'b', limit: CACHE_PAGE, offset: 0 }]);
    release();
    await first;
    await flush();
    expect(fake.callsOf('searchCache')).toEqual([
      { text: 'b', limit: CACHE_PAGE, offset: 0 },
      { text: 'beam', limit: CACHE_PAGE, offset: 0 },
    ]);
    expect(s.shownText).toBe('beam');
    expect(s.total).toBe(300);
    expect(s.rows).toHaveLength(CACHE_PAGE);
    for (let i = 0; i < 20 && s.rows.length < 300; i++) await s.loadMore();
    expect(s.rows).toHaveLength(300);
    const pages = Math.ceil(300 / CACHE_PAGE);
    expect(fake.callsOf('searchCache').slice(2)).toEqual(Array.from({ length: pages - 1 }, (_, i) => ({ text: 'beam', limit: CACHE_PAGE, offset: (i + 1) * CACHE_PAGE })));
    await s.loadMore();
    expect(fake.callsOf('searchCache')).toHaveLength(2 + pages - 1); // nothing more to load
  });

  it('keeps slim, frozen rows made from the result rows the core sent', async () => {
    const { api } = setupRenderer({ messages: cached });
    const s = useCacheStore();
    await s.setText('dfk');
    await s.loadMore();
    expect(s.rows).toHaveLength(2 * CACHE_PAGE);
    expect(isReactive(s.rows[0])).toBe(false);
    expect(Object.isFrozen(s.rows[0])).toBe(true);
    const sent = await api.searchCache({ text: 'dfk', limit: 2 * CACHE_PAGE });
    s.rows.forEach((row, i) => {
      expect(row.index).toBe(i);
      expect(row.messageId).toBe(sent.items[i]!.messageId);
      expect(row.status).toBe(sent.items[i]!.status);
      expect(row.route).toMatch(/ → DFK Chain$/);
    });
  });

  it('keeps loading past a capped count while pages come back full', async () => {
    const many = Array.from({ length: SEARCH_COUNT_CAP + 30 }, (_, i) => ({ message: message({ n: i + 1, dst: BEAM }), network: 'mainnet' as const }));
    const { fake } = setupRenderer({ messages: many });
    const s = useCacheStore();
    await s.search();
    expect(s.total).toBe(SEARCH_COUNT_CAP);
    expect(s.totalCapped).toBe(true);
    for (let i = 0; i < 40 && s.rows.length < many.length; i++) await s.loadMore();
    expect(s.rows).toHaveLength(many.length);
    const calls = fake.callsOf('searchCache').length;
    await s.loadMore();
    expect(fake.callsOf('searchCache')).toHaveLength(calls); // the last page was short: that was all
  });

  it('never lets an older answer overwrite a newer one', async () => {
    const { fake } = setupRenderer({ messages: cached });
    const s = useCacheStore();
    const release = fake.hold('searchCache');
    s.text = 'dfk';
    const slow = s.search();
    s.text = 'beam';
    await s.search();
    release();
    await slow;
    expect(s.shownText).toBe('beam');
    expect(s.total).toBe(300);
  });
});

describe('charts store', () => {
  it('loads stats for the chosen hours', async () => {
    const { fake } = setupRenderer();
    const s = useChartsStore();
    await s.load(6);
    expect(fake.callsOf('getStats')).toEqual([{ hours: 6 }]);
    expect(s.stats?.buckets).toHaveLength(6);
    await s.load(0);
    expect(s.error?.kind).toBe('invalid_input');
  });
});
