// The connection owner against the real web host: the page's event socket drops while the core changes
// (another page adds a watch, a relayer and a route, changes settings, polls), then comes back; every
// store must show what the core has, although each of those events was missed.
import { afterEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { WebSocket } from 'ws';
import { ownConnection } from '../../src/renderer/src/connection';
import { installMonitor } from '../../src/renderer/src/client';
import { useActivityStore } from '../../src/renderer/src/stores/activity';
import { useCacheStore } from '../../src/renderer/src/stores/cache';
import { useDemoStore } from '../../src/renderer/src/stores/demo';
import { useMessagesStore } from '../../src/renderer/src/stores/messages';
import { useChartsStore } from '../../src/renderer/src/stores/charts';
import { useRelayersStore } from '../../src/renderer/src/stores/relayers';
import { useSettingsStore } from '../../src/renderer/src/stores/settings';
import { useSourceStore } from '../../src/renderer/src/stores/source';
import { useStatusStore } from '../../src/renderer/src/stores/status';
import { useUiStore } from '../../src/renderer/src/stores/ui';
import { useWatchlistStore } from '../../src/renderer/src/stores/watchlist';
import { createWebTransport, type SocketLike } from '../../src/renderer/src/transport/web-transport';
import { type MonitorApi } from '../../src/shared/contract';
import { createMonitorClient } from '../../src/renderer/src/transport/monitor-client';
import { MonitorError } from '../../src/shared/errors';
import { startStack, type Stack } from '../host/stack';
import { BEAM, C_CHAIN, addr } from './fixtures';
import { until } from './real-core';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The page's socket to the real host; `down` refuses new sockets (each try fails and is retried). */
function pageSocket() {
  const gate = { down: false, current: null as WebSocket | null };
  const createSocket = (url: string): SocketLike => {
    if (gate.down) throw new Error('The network is down (test).');
    gate.current = new WebSocket(url);
    return gate.current as unknown as SocketLike;
  };
  return { gate, createSocket };
}

/** The core's own answers, asked over HTTP like another page would (the dropped socket plays no part). */
const coreState = async (api: MonitorApi) => ({
  watches: await api.listWatches(),
  activity: (await api.listActivity({ limit: 50 })).items,
  settings: await api.getSettings(),
  relayers: await api.listRelayers(),
  routes: await api.listRoutes(),
  overview: await api.relayerOverview(),
  poll: await api.getPollStatus(),
  cacheTotal: (await api.searchCache({ limit: 1 })).total,
  stats: await api.getStats({ hours: 24 }),
});

async function setup(): Promise<{ stack: Stack; gate: ReturnType<typeof pageSocket>['gate']; api: MonitorApi }> {
  const stack = await startStack();
  cleanups.push(() => stack.close());
  const { gate, createSocket } = pageSocket();
  const transport = createWebTransport({ origin: `http://127.0.0.1:${stack.app.host.port}`, token: stack.app.host.token, createSocket, backoffMs: () => 30 });
  cleanups.push(() => transport.close());
  const api = createMonitorClient(transport, (e) => new MonitorError(e));
  installMonitor(api);
  setActivePinia(createPinia());
  const owner = ownConnection(transport);
  cleanups.push(owner.stop);
  await owner.ready;
  await until(() => expect(useStatusStore().connection.state).toBe('open'));
  return { stack, gate, api };
}

/** Drops the page's socket and keeps it down until `up()`. */
async function drop(gate: ReturnType<typeof pageSocket>['gate']): Promise<() => Promise<void>> {
  gate.down = true;
  gate.current!.terminate();
  await until(() => expect(useStatusStore().connection.state).not.toBe('open'));
  return async () => {
    gate.down = false;
    await until(() => expect(useStatusStore().connection.state).toBe('open'));
  };
}

describe('the connection owner', () => {
  it('after the event socket comes back, every view shows what the core has, although its events were missed', async () => {
    const { stack, gate, api } = await setup();
    const core = (method: Parameters<typeof stack.app.core.invoke>[0], input?: unknown) => stack.app.core.invoke(method, input);
    const watchlist = useWatchlistStore();
    const activity = useActivityStore();
    const settings = useSettingsStore();
    const relayers = useRelayersStore();
    const status = useStatusStore();
    const cache = useCacheStore();
    const charts = useChartsStore();
    // The views were opened once (the owner loaded the others at the start).
    await Promise.all([relayers.load(), cache.search(), charts.load()]);
    expect(watchlist.loaded && activity.loaded && settings.settings !== null && status.appInfo !== null).toBe(true);
    const before = await coreState(api);

    const up = await drop(gate);

    // Meanwhile the core moves on: each change's event goes to nobody.
    const address = stack.service.simulator.addresses[0]!;
    expect(await core('addWatch', { address, label: 'Treasury' })).toMatchObject({ ok: true });
    expect(await core('pollNow')).toMatchObject({ ok: true }); // the watch's silent first read
    stack.service.simulator.send({
      outcome: 'normal',
      from: address,
      source: C_CHAIN.blockchainId,
      destination: BEAM.blockchainId,
      deliveryDelayMs: 3_600_000,
    });
    expect(await core('pollNow')).toMatchObject({ ok: true });
    expect(await core('updateSettings', { stuckThresholdMinutes: 45, theme: 'dark' })).toMatchObject({ ok: true });
    expect(await core('addRelayer', { address: addr(5), label: 'Ours' })).toMatchObject({ ok: true });
    expect(await core('addRoute', { source: C_CHAIN.blockchainId, destination: BEAM.blockchainId })).toMatchObject({ ok: true });

    const after = await coreState(api);
    // The changes are real, and the stores still show the world from before the drop.
    expect(after.watches.map((w) => w.address)).toEqual([address]);
    expect(after.activity.length).toBeGreaterThan(before.activity.length);
    expect(after.cacheTotal).toBeGreaterThan(before.cacheTotal);
    expect(after.poll.lastSuccessAt).not.toBe(before.poll.lastSuccessAt);
    expect(watchlist.watches).toEqual(before.watches);
    expect(activity.items).toEqual(before.activity);
    expect(settings.settings).toEqual(before.settings);
    expect(relayers.relayers).toEqual(before.relayers);
    expect(status.poll).toEqual(before.poll);

    await up();
    await until(() => {
      expect(watchlist.watches).toEqual(after.watches);
      expect(activity.items).toEqual(after.activity);
      expect(settings.settings).toEqual(after.settings);
      expect(relayers.relayers).toEqual(after.relayers);
      expect(relayers.routes).toEqual(after.routes);
      expect(relayers.overview?.relayers.map((r) => r.address)).toEqual(after.overview.relayers.map((r) => r.address));
      expect(status.poll?.lastSuccessAt).toBe(after.poll.lastSuccessAt);
      expect(cache.total).toBe(after.cacheTotal);
      expect(charts.stats).toEqual(after.stats);
    });
  });

  it('a data-source change made while the socket was down is a clean cut once it is back', async () => {
    const { stack, gate } = await setup();
    const messages = useMessagesStore();
    expect(await messages.apply()).toBe(true);
    expect(messages.messages.length).toBeGreaterThan(0);
    expect(useDemoStore().addresses.length).toBeGreaterThan(0);
    const up = await drop(gate);
    // Another page moves the core to a source nobody listens on (tests never leave 127.0.0.1).
    expect(await stack.app.core.invoke('updateSettings', { dataSource: { kind: 'custom', baseUrl: 'http://127.0.0.1:9' } })).toMatchObject({ ok: true });
    await up();
    await until(() => {
      expect(useSettingsStore().settings?.dataSource).toEqual({ kind: 'custom', baseUrl: 'http://127.0.0.1:9' });
      expect(useStatusStore().simulated).toBe(false);
      expect(useDemoStore().addresses).toEqual([]);
      expect(useSourceStore().current).toBe('the custom URL http://127.0.0.1:9');
      // The demo's rows do not stay under the new source's error.
      expect(messages.messages).toEqual([]);
      expect(messages.error?.message).toContain('Cannot reach');
    });
  });

  it("an open message drawer shows the cache's copy as it is after the reconnect", async () => {
    const { stack, gate, api } = await setup();
    const core = stack.app.core;
    const address = stack.service.simulator.addresses[1]!;
    expect(await core.invoke('addWatch', { address })).toMatchObject({ ok: true });
    expect(await core.invoke('pollNow', undefined)).toMatchObject({ ok: true });
    const messageId = stack.service.simulator.send({
      outcome: 'normal',
      from: address,
      source: C_CHAIN.blockchainId,
      destination: BEAM.blockchainId,
      deliveryDelayMs: 1_000,
    });
    expect(await core.invoke('pollNow', undefined)).toMatchObject({ ok: true });
    const ui = useUiStore();
    await ui.openMessageById(messageId);
    expect(ui.detail?.status).toBe('pending');

    const up = await drop(gate);
    // Delivered meanwhile, and read by the core's polls.
    await until(async () => {
      expect(await core.invoke('pollNow', undefined)).toMatchObject({ ok: true });
      expect((await api.getMessage({ messageId }))?.message.status).toBe('delivered');
    });
    expect(ui.detail?.status).toBe('pending');
    await up();
    await until(() => expect(ui.detail?.status).toBe('delivered'));
    expect(ui.detailCached).toEqual(await api.getMessage({ messageId }));
  });
});
