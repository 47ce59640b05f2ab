import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMonitorCore } from '../../src/core';
import type { MonitorCore } from '../../src/core/monitor-core';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../src/shared/ipc-channels';
import { type WatchedAddress } from '../../src/shared/contract';
import { registerInvokeHandler, sendEvent } from '../../src/main/ipc';
import { FakeIpcMain, FakeWebContents, frameAt } from './fake-electron';

const APP = 'file:///opt/tw/out/renderer/index.html';
const ADDRESS = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf';

let dir: string;
let core: MonitorCore;
const ipcMain = new FakeIpcMain();
const ours = new FakeWebContents();
const stranger = new FakeWebContents();

const call = (sender: { id: number }, frame: ReturnType<typeof frameAt> | null, method: unknown, input?: unknown) =>
  ipcMain.invoke(IPC_INVOKE_CHANNEL, sender, frame, method, input) as Promise<{
    ok: boolean;
    value?: unknown;
    error?: { kind: string; message: string; field?: string };
  }>;
const watches = async () => ((await core.invoke('listWatches', undefined)) as { value: WatchedAddress[] }).value;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tw-ipc-'));
  // The real core on a temp folder; no polling, a keychain name no one else uses.
  core = await createMonitorCore({
    dataDir: dir,
    shell: 'electron',
    version: 'test',
    autoPoll: false,
    keychainService: `tw-test-ipc-${process.pid}-${Date.now()}`,
  });
  registerInvokeHandler(ipcMain, core, { appContents: () => ours, isAppUrl: (u) => u.split('#')[0] === APP });
});
afterAll(async () => {
  await core?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('IPC invoke handler', () => {
  it('forwards our page’s calls to the core and returns its values', async () => {
    const added = await call(ours, frameAt(`${APP}#/watch`), 'addWatch', { address: ADDRESS.toLowerCase(), label: 'Messenger' });
    expect(added.ok).toBe(true);
    // The core normalised the address (EIP-55) and stored it: the call really reached it.
    expect(added.value).toMatchObject({ address: ADDRESS, label: 'Messenger' });
    expect((await watches()).map((w) => w.address)).toEqual([ADDRESS]);
    const listed = await call(ours, frameAt(APP), 'listWatches');
    expect(listed).toEqual({ ok: true, value: await watches() });
  });

  it('returns the core’s typed errors as values', async () => {
    expect(await call(ours, frameAt(APP), 'addWatch', { address: '0x1234' })).toMatchObject({ ok: false, error: { kind: 'invalid_input', field: 'address' } });
    expect(await call(ours, frameAt(APP), 'setApiKey', { key: 'short' })).toMatchObject({ ok: false, error: { kind: 'invalid_input', field: 'key' } });
    expect(await call(ours, frameAt(APP), 'openExternal', { url: 'https://evil.example/' })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(await call(ours, frameAt(APP), 'dropDatabase')).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input', message: expect.stringContaining('Unknown method') },
    });
    expect(await call(ours, frameAt(APP), { toString: () => 'getSettings' })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
  });

  it('refuses another webContents, a subframe, a foreign page and a vanished frame, without touching the core', async () => {
    const before = await watches();
    const other = '0x0000000000000000000000000000000000000001';
    const refusals = [
      await call(stranger, frameAt(APP), 'addWatch', { address: other }),
      await call(ours, frameAt(APP, frameAt(APP)), 'addWatch', { address: other }),
      await call(ours, frameAt('https://evil.example/'), 'addWatch', { address: other }),
      await call(ours, frameAt('file:///tmp/evil.html'), 'addWatch', { address: other }),
      await call(ours, null, 'addWatch', { address: other }),
    ];
    for (const r of refusals) expect(r).toMatchObject({ ok: false, error: { kind: 'unauthorized', message: expect.stringMatching(/^Refused: /) } });
    expect(refusals[2]!.error!.message).toContain('https://evil.example');
    expect(await watches()).toEqual(before);
  });

  it('refuses everything while there is no window', async () => {
    const lone = new FakeIpcMain();
    registerInvokeHandler(lone, core, { appContents: () => null, isAppUrl: () => true });
    expect(await lone.invoke(IPC_INVOKE_CHANNEL, ours, frameAt(APP), 'getSettings')).toMatchObject({ ok: false, error: { kind: 'unauthorized' } });
  });

  it('pushes events to our page only while it exists', () => {
    const target = new FakeWebContents();
    expect(sendEvent(target, { type: 'watchlist-changed' })).toBe(true);
    expect(target.sent).toEqual([{ channel: IPC_EVENT_CHANNEL, payload: { type: 'watchlist-changed' } }]);
    target.destroyed = true;
    expect(sendEvent(target, { type: 'watchlist-changed' })).toBe(false);
    expect(sendEvent(null, { type: 'watchlist-changed' })).toBe(false);
    expect(target.sent).toHaveLength(1);
  });
});
