// @vitest-environment happy-dom
// Events over the Electron bridge: the core's events go out through main's sendEvent, cross the IPC
// channel as a structured clone, come in through the preload's transport and meet the renderer's
// event door (monitor-events.ts), which checks each against the contract before a store sees it.
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IpcRenderer } from 'electron';
import { sendEvent } from '../../src/main/ipc';
import { createIpcTransport } from '../../src/preload/transport';
import { installMonitor } from '../../src/renderer/src/client';
import { useSettingsStore } from '../../src/renderer/src/stores/settings';
import { useStatusStore } from '../../src/renderer/src/stores/status';
import { useWatchlistStore } from '../../src/renderer/src/stores/watchlist';
import { type MonitorMethod } from '../../src/shared/contract';
import { createMonitorClient } from '../../src/renderer/src/transport/monitor-client';
import { MonitorError } from '../../src/shared/errors';
import { IPC_EVENT_CHANNEL } from '../../src/shared/ipc-channels';
import { BEAM } from './fixtures';
import { type RealRenderer, setupRealRenderer, until } from './real-core';

afterEach(() => {
  vi.restoreAllMocks();
});

/** The renderer's client on the preload's transport; main's webContents.send feeds its channel. */
function overPreload(r: RealRenderer) {
  const channel = new EventEmitter();
  const ipcRenderer = {
    invoke: (_channel: string, method: MonitorMethod, input: unknown) => r.transport.invoke(method, input),
    on: (name: string, listener: (...args: unknown[]) => void) => channel.on(name, listener),
    removeListener: (name: string, listener: (...args: unknown[]) => void) => channel.removeListener(name, listener),
  } as unknown as Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>;
  const webContents = { send: (name: string, payload: unknown) => channel.emit(name, { sender: null }, structuredClone(payload)), isDestroyed: () => false };
  installMonitor(
    createMonitorClient(createIpcTransport(ipcRenderer), (e) => new MonitorError(e)),
    r.clock,
  );
  const off = r.core.onEvent((e) => sendEvent(webContents, e)); // what src/main does with every core event
  return { send: (payload: unknown) => webContents.send(IPC_EVENT_CHANNEL, payload), off };
}

describe('events over the Electron preload', () => {
  it("pass the contract's schemas when the core sent them; a malformed one is dropped and reported, and no store sees it", async () => {
    const r = await setupRealRenderer();
    const ipc = overPreload(r);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const status = useStatusStore();
    const settings = useSettingsStore();
    const watchlist = useWatchlistStore();
    const a = r.service.simulator.addresses[0]!;
    await watchlist.add({ address: a });
    await r.poll();
    await r.clock.advance(1000);
    r.service.simulator.send({ outcome: 'normal', from: a, destination: BEAM.blockchainId, deliveryDelayMs: 3_600_000 });
    await r.clock.advance(1000);
    await r.poll();
    // The core's own events, every kind the poll and a settings change send, all pass.
    await until(() => expect(watchlist.totalUnread).toBe(1)); // a transitions batch
    expect(status.poll?.state).toBe('idle'); // poll-status
    expect(await r.core.invoke('updateSettings', { pollIntervalSeconds: 90 })).toMatchObject({ ok: true });
    await until(() => expect(settings.settings?.pollIntervalSeconds).toBe(90)); // settings-changed
    expect(warn).not.toHaveBeenCalled();

    // What the stores hold, as plain data (a store's reactive proxies cannot be cloned onto the channel).
    const before = JSON.parse(JSON.stringify({ poll: status.poll, settings: settings.settings, watches: watchlist.watches })) as {
      poll: object;
      settings: object;
      watches: object[];
    };
    ipc.send({ type: 'poll-status', status: { ...before.poll, state: 'melting' } });
    ipc.send({ type: 'settings-changed', settings: { ...before.settings, pollIntervalSeconds: 1 } });
    ipc.send({ type: 'transitions', transitions: [], watches: [{ ...before.watches[0], unread: 99 }] });
    ipc.send({ type: 'watchlist-changed-everything' });
    ipc.send('poll-status');
    expect({ poll: status.poll, settings: settings.settings, watches: watchlist.watches }).toEqual(before);
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringMatching(/Dropped an event .*status\.state/),
      expect.stringMatching(/Dropped an event .*settings\.pollIntervalSeconds/),
      expect.stringMatching(/Dropped an event .*transitions/),
      expect.stringMatching(/Dropped an event /),
      expect.stringMatching(/Dropped an event /),
    ]);
    ipc.off();
  });
});
