import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalService } from '../../src/local-service';
import { MONITOR_METHODS, MONITOR_RESULTS, type MonitorMethod } from '../../src/shared/contract';
import { coreOnService } from '../core/core-on-service';
import { BEAM, C_CHAIN } from '../core/helpers';
import { JumpClock } from '../core/http-helpers';

/** Calls that act outside the core (a browser, the OS keychain): their results are `void` / the key's status, checked by their own tests. */
const NOT_CALLED: MonitorMethod[] = ['openExternal', 'setApiKey', 'deleteApiKey'];

describe('each method answers what its result schema describes', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('a real core on the local service: every result, as it crosses the wire, parses to itself (no field the schema lacks, none it misreads)', async () => {
    const clock = new JumpClock(Date.UTC(2026, 0, 1, 12));
    const svc = await startLocalService({ clock, rate: 1, preload: 400, addressCount: 12, warmStore: false });
    cleanups.push(() => svc.close());
    const core = await coreOnService(svc.url, clock, cleanups);
    const called = new Set<MonitorMethod>();
    const results = new Map<MonitorMethod, unknown>();
    const call = async (method: MonitorMethod, input?: unknown): Promise<unknown> => {
      const r = await core.invoke(method, input);
      if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
      called.add(method);
      // The web host sends JSON; Electron's structured clone keeps at least as much.
      const wire: unknown = r.value === undefined ? undefined : JSON.parse(JSON.stringify(r.value));
      const parsed = MONITOR_RESULTS[method].safeParse(wire);
      expect(parsed.error?.issues, method).toBeUndefined();
      // Parsing strips what the schema does not name: a result equal to its parse has no unnamed field.
      expect(parsed.data, method).toEqual(wire);
      results.set(method, wire);
      return wire;
    };

    const demo = (await call('getDemoAddresses')) as { addresses: string[]; relayers: { address: string }[] };
    const hot = demo.addresses[0]!;
    await call('getAppInfo');
    await call('getSettings');
    await call('updateSettings', { stuckThresholdMinutes: 30 });
    await call('updateSettings', { alertChannels: [{ type: 'webhook', name: 'closed', url: 'http://127.0.0.1:1/hook', timeoutSeconds: 1 }] });
    await call('alertChannelStates');
    await call('getApiKeyStatus');
    await call('testApiKey');
    await call('addWatch', { address: hot, label: 'hot' });
    await call('updateWatch', { address: hot, label: 'hot one' });
    const feed = (await call('addFeed', { name: 'to Beam', filter: { destinationBlockchainId: BEAM } })) as { id: string };
    await call('addRelayer', { address: demo.relayers[0]?.address ?? hot, label: 'persona' });
    const route = (await call('addRoute', { source: C_CHAIN, destination: BEAM, label: 'C to Beam' })) as { id: string };
    await call('pollNow');
    // The first read is the watches' silent baseline: poll on, a simulated minute at a time, until the log holds a change.
    for (let i = 0; i < 20 && ((await core.invoke('listTransitions', {})) as { value: { items: unknown[] } }).value.items.length === 0; i++) {
      await clock.advance(60_000);
      await call('pollNow');
    }
    await call('listWatches');
    await call('markWatchViewed', { address: hot });
    await call('listFeeds');
    await call('listRelayers');
    await call('listRoutes');
    const page = (await call('browseMessages', { pageSize: 10 })) as { messages: { messageId: string }[] };
    expect(page.messages.length).toBeGreaterThan(0);
    await call('browseAddressMessages', { address: hot, pageSize: 10 });
    const found = (await call('searchCache', { text: '' })) as { items: { messageId: string }[] };
    const id = found.items[0]?.messageId ?? page.messages[0]!.messageId;
    expect((await call('getMessage', { messageId: id })) ?? null).not.toBeNull();
    await call('findMessage', { messageId: id });
    const log = (await call('listTransitions', {})) as { items: unknown[] };
    expect(log.items.length).toBeGreaterThan(0);
    expect(((await call('listActivity', { limit: 2 })) as { next?: unknown }).next).toBeDefined();
    await call('getPollStatus');
    await call('getStats', { hours: 24 });
    await call('getCacheSources');
    const overview = (await call('relayerOverview')) as { routes: unknown[] };
    expect(overview.routes).toHaveLength(1);
    await call('relayerFigureMessages', { routeId: route.id, figure: 'deliveries24h' });
    await call('relayerEconomics');
    const relayerConfig = readFileSync(join(__dirname, '../core/fixtures/relayer-config/relayer-config-with-keys.json'), 'utf8');
    await call('previewRelayerConfig', { text: relayerConfig });
    expect(await call('importRelayerConfig', { text: relayerConfig, fileName: 'relayer.json' })).toMatchObject({ plan: { metricsPort: 9191 } });
    const token = '0x1111111111111111111111111111111111111111';
    expect(await call('handCall', { kind: 'redeem', relayer: hot, blockchainId: C_CHAIN, feeAsset: token })).toMatchObject({ sender: hot });
    const relayer = demo.relayers[0]?.address ?? hot;
    // Set (nothing listens there: the next cycle would say "not read") and cleared again.
    await call('setRelayerMetricsUrl', { address: relayer, url: 'http://127.0.0.1:9/metrics' });
    await call('relayerOwnView');
    await call('setRelayerMetricsUrl', { address: relayer, url: null });
    // The service holds 400 messages: the route's first read took its whole list, nothing more to read.
    expect(await call('readRouteHistory', { routeId: route.id, hours: 24 })).toMatchObject({ routeId: route.id, started: false, from: null });
    await call('removeRoute', { id: route.id });
    await call('removeRelayer', { address: demo.relayers[0]?.address ?? hot });
    await call('removeFeed', { id: feed.id });
    await call('removeWatch', { address: hot });

    expect(MONITOR_METHODS.filter((m) => !called.has(m) && !NOT_CALLED.includes(m))).toEqual([]);
  });

  it('a result with a field its schema lacks, or of the wrong shape, is told apart', () => {
    const status = { hasApiKey: false, storage: 'none' };
    expect(MONITOR_RESULTS.getApiKeyStatus.parse({ ...status, secret: 'x' })).toEqual(status);
    expect(MONITOR_RESULTS.getApiKeyStatus.safeParse({ hasApiKey: 'no', storage: 'none' }).success).toBe(false);
    expect(MONITOR_RESULTS.getMessage.safeParse(null).success).toBe(true);
    expect(MONITOR_RESULTS.removeWatch.safeParse(undefined).success).toBe(true);
  });
});
