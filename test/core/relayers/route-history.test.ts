/**
 * A watched route's first read (its silent baseline), on the real core and the local service with a
 * day of history, counted at the service: by default it reads the route's last hour (the pages that
 * hour holds, not a day's), and the Relayers figures say since when they hold the route's messages;
 * with routeHistoryHours 24 it reads the day and its figures hold the whole day.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalService } from '../../../src/local-service';
import { messageTimestamp, parseMessage, type TeleporterMessage } from '../../../src/shared/messages';
import type { RelayerEconomics, RelayerOverview } from '../../../src/shared/relayers';
import type { MonitorCore } from '../../../src/core/monitor-core';
import { PAGE_SIZE } from '../../../src/core/poller/request-prices';
import { coreOnService } from '../core-on-service';
import { BEAM, C_CHAIN } from '../helpers';
import { JumpClock } from '../http-helpers';
import { recordingProxy } from './recording-proxy';

const START = Date.UTC(2026, 0, 1, 12);
const HOUR = 3_600_000;
/** A list read filtered on the route's two chains. */
const isRouteRead = (line: string) => line.includes(`sourceBlockchainId=${C_CHAIN}`) && line.includes(`destinationBlockchainId=${BEAM}`);

async function call<T>(core: MonitorCore, method: string, input?: unknown): Promise<T> {
  const r = await core.invoke(method, input);
  if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
  return r.value as T;
}

describe('a watched route’s first read', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('reads its last hour by default (figures say since when), the whole day with routeHistoryHours 24', { timeout: 120_000 }, async () => {
    const clock = new JumpClock(START);
    const svc = await startLocalService({ clock, rate: 1, history: 26, warmStore: false, rateLimitPerMinute: { keyed: 1e6, anonymous: 1e6 } });
    cleanups.push(() => svc.close());
    // The route's records in the service (the list orders them by messageTimestamp, s).
    const onRoute: TeleporterMessage[] = [];
    for (let before: number | undefined; ;) {
      const page = svc.store.page({}, before, 5000);
      for (const r of page.records) {
        const m = parseMessage(JSON.parse(r))!;
        if (m.status !== 'unknown' && m.sourceBlockchainId === C_CHAIN && m.destinationBlockchainId === BEAM) onRoute.push(m);
      }
      if (!page.hasMore) break;
      before = page.positions[page.positions.length - 1];
    }
    const listedSince = (m: TeleporterMessage, ms: number) => (messageTimestamp(m) ?? 0) * 1000 >= ms;
    const sentSince = (ms: number) => onRoute.filter((m) => listedSince(m, ms)).length;
    const hourPages = Math.ceil(sentSince(START - HOUR) / PAGE_SIZE);
    const dayPages = Math.ceil(sentSince(START - 24 * HOUR) / PAGE_SIZE);
    expect(dayPages).toBeGreaterThanOrEqual(3 * hourPages);
    expect(dayPages).toBeLessThan(50); // within the baseline's page cap: the whole day fits

    /** A core of its own through a recording proxy: its first cycle's route reads and its figures. */
    const firstRead = async (routeHistoryHours?: number) => {
      const proxy = await recordingProxy(svc.url);
      cleanups.push(() => proxy.close());
      const core = await coreOnService(proxy.url, clock, cleanups);
      if (routeHistoryHours !== undefined) await call(core, 'updateSettings', { routeHistoryHours });
      await call(core, 'addRoute', { source: 'C-Chain', destination: 'Beam', label: 'c-beam', alert: false });
      await call(core, 'pollNow');
      return {
        reads: proxy.targets.filter(isRouteRead).length,
        overview: await call<RelayerOverview>(core, 'relayerOverview'),
        economics: await call<RelayerEconomics>(core, 'relayerEconomics'),
      };
    };

    const byDefault = await firstRead();
    // The hour's pages, and the one read to know it reached past the hour (plus at most the cycle's own news read), not the day's.
    expect(byDefault.reads).toBeLessThanOrEqual(hourPages + 2);
    expect(byDefault.reads).toBeLessThan(dayPages);
    // The figures say since when they hold the route: where that read reached, about an hour back, not a day.
    const from = byDefault.overview.historyFrom!;
    expect(from).toBeLessThanOrEqual(START - HOUR + 1000);
    expect(from).toBeGreaterThan(START - 2 * HOUR);
    expect(byDefault.economics.historyFrom).toBe(from);
    // What they count is what they hold: deliveries of the messages listed since then, none older.
    const delivered = (sinceMs: number) =>
      onRoute.filter(
        (m) => m.status !== 'pending' && m.status !== 'unknown' && listedSince(m, sinceMs) && m.destinationTransaction.timestamp * 1000 > START - 24 * HOUR,
      ).length;
    // (the oldest second read may be held in part: the list orders by second only)
    expect(byDefault.overview.routes[0]!.deliveries24h).toBeGreaterThanOrEqual(delivered(from));
    expect(byDefault.overview.routes[0]!.deliveries24h).toBeLessThanOrEqual(delivered(from - 1000));

    const wholeDay = await firstRead(24);
    expect(wholeDay.reads).toBeGreaterThanOrEqual(dayPages);
    expect(wholeDay.overview.historyFrom).toBeNull();
    expect(wholeDay.economics.historyFrom).toBeNull();
    expect(wholeDay.overview.routes[0]!.deliveries24h).toBe(delivered(START - 25 * HOUR));
  });
});
