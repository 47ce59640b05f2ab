/**
 * The shell when the core cannot start (its data folder is read-only, full, or holds a newer
 * database): the window still opens and the page's calls answer with the reason, the log says it,
 * and the app stays up in the tray (no exit, so no restart loop). Real core, real files.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createMonitorCore } from '../../src/core';
import { startShell } from '../../src/main/shell';
import { IPC_INVOKE_CHANNEL } from '../../src/shared/ipc-channels';
import { type InvokeResponse } from '../../src/shared/contract';
import { fakeElectron, frameAt } from './fake-electron';

const PATHS = { preload: '/opt/tw/out/preload/index.js', indexHtml: '/opt/tw/out/renderer/index.html', localService: '/opt/tw/out/main/local-service.js' };
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('desktop shell with an unusable data folder', () => {
  it('opens the window, answers every call with the reason, logs it, and stays up until Quit', async () => {
    const fx = fakeElectron();
    cleanups.push(() => rmSync(fx.app.home, { recursive: true, force: true }));
    // A file where the data folder should be.
    const dataDir = fx.app.getPath('userData');
    writeFileSync(dataDir, 'not a folder');
    const logs: string[] = [];
    const log = (level: string) => (m: string) => void logs.push(`${level} ${m}`);
    const running = await startShell(fx.boundary, {
      paths: PATHS,
      platform: 'linux',
      argv: ['tw'],
      env: {},
      execPath: '/opt/tw/teleporter-watch',
      createCore: (o) => createMonitorCore({ ...o, autoPoll: false }),
      logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
    });
    const reason = `The data folder ${dataDir} is a file, not a folder. Move that file away, or start Teleporter Watch with another data folder (environment variable TELEPORTER_WATCH_DATA_DIR).`;
    expect(logs).toContain(`error the core could not start: ${reason}`);

    const [win] = fx.windows;
    expect(win?.loaded).toEqual([{ kind: 'file', target: PATHS.indexHtml }]);
    win!.emitRaw('ready-to-show');
    expect(win!.visible).toBe(true);
    const answer = (await fx.ipcMain.invoke(
      IPC_INVOKE_CHANNEL,
      win!.webContents,
      frameAt('file:///opt/tw/out/renderer/index.html'),
      'getAppInfo',
      undefined,
    )) as InvokeResponse;
    expect(answer).toEqual({ ok: false, error: { kind: 'internal', message: reason } });
    expect(fx.app.exitCode).toBeNull();
    expect(fx.app.quitCalls).toBe(0);

    fx.trays[0]!.clickItem('quit');
    await running!.closed;
    expect(fx.trays[0]!.destroyed).toBe(true);
  });
});
