import { beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../src/shared/ipc-channels';
import { type MonitorEvent, type MonitorTransport } from '../../src/shared/contract';
import { Emitter } from './fake-electron';

// The Electron boundary, replaced: what the preload hands to contextBridge and asks of ipcRenderer.
const exposed: { key: string; api: unknown }[] = [];
const ipcRenderer = Object.assign(new Emitter(), {
  invocations: [] as unknown[][],
  invoke(...args: unknown[]) {
    this.invocations.push(args);
    return Promise.resolve({ ok: true, value: 'pong' });
  },
});
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.push({ key, api }) },
  ipcRenderer,
}));

describe('preload', () => {
  beforeEach(async () => {
    exposed.length = 0;
    vi.resetModules();
    await import('../../src/preload/index');
  });

  it('exposes exactly the transport, under window.monitor', () => {
    expect(exposed.map((e) => e.key)).toEqual(['monitor']);
    const api = exposed[0]!.api as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual(['invoke', 'subscribe']);
    expect(Object.values(api).every((v) => typeof v === 'function')).toBe(true);
  });

  it('sends calls over the one invoke channel', async () => {
    const api = exposed[0]!.api as MonitorTransport;
    await expect(api.invoke('getSettings', undefined)).resolves.toEqual({ ok: true, value: 'pong' });
    await api.invoke('addWatch', { address: '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf' });
    expect(ipcRenderer.invocations.slice(-2)).toEqual([
      [IPC_INVOKE_CHANNEL, 'getSettings', undefined],
      [IPC_INVOKE_CHANNEL, 'addWatch', { address: '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf' }],
    ]);
  });

  it('delivers events without Electron’s event object, and unsubscribes', () => {
    const api = exposed[0]!.api as MonitorTransport;
    const got: unknown[][] = [];
    const off = api.subscribe((...args) => got.push(args));
    const ev: MonitorEvent = { type: 'watchlist-changed' };
    const electronEvent = { sender: { send: () => undefined }, ports: [] };
    ipcRenderer.emitRaw(IPC_EVENT_CHANNEL, electronEvent, ev);
    expect(got).toEqual([[ev]]);
    off();
    ipcRenderer.emitRaw(IPC_EVENT_CHANNEL, electronEvent, { type: 'watchlist-changed' });
    expect(got).toHaveLength(1);
    expect(ipcRenderer.listenerCount(IPC_EVENT_CHANNEL)).toBe(0);
  });
});
