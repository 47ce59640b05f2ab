import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLoginItem, autostartDesktopEntry, launchCommand, shouldStartHidden } from '../../src/main/login-items';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('start at login and start hidden', () => {
  it('starts hidden when the setting says so or the launch carries --hidden', () => {
    expect(shouldStartHidden({ startHidden: true }, ['/usr/bin/tw'])).toBe(true);
    expect(shouldStartHidden({ startHidden: false }, ['/usr/bin/tw', '--hidden'])).toBe(true);
    expect(shouldStartHidden({ startHidden: false }, ['/usr/bin/tw'])).toBe(false);
  });

  it('launches the AppImage when run from one, the app folder in development', () => {
    expect(launchCommand({ isPackaged: true, execPath: '/tmp/.mount_x/tw', appPath: '/a', appImage: '/home/u/TW.AppImage' })).toEqual({
      command: '/home/u/TW.AppImage',
      args: [],
    });
    expect(launchCommand({ isPackaged: true, execPath: '/opt/tw/tw', appPath: '/a', appImage: undefined })).toEqual({ command: '/opt/tw/tw', args: [] });
    expect(launchCommand({ isPackaged: false, execPath: '/n/electron', appPath: '/src/tw', appImage: undefined })).toEqual({
      command: '/n/electron',
      args: ['/src/tw'],
    });
  });

  it('quotes the autostart Exec line', () => {
    const entry = autostartDesktopEntry({ command: '/opt/Teleporter Watch/tw', args: [] }, true);
    expect(entry).toContain('Exec="/opt/Teleporter Watch/tw" --hidden\n');
    expect(entry.startsWith('[Desktop Entry]\nType=Application\n')).toBe(true);
  });

  it('on Linux writes and removes an XDG autostart entry', async () => {
    const configDir = mkdtempSync(join(tmpdir(), 'tw-autostart-'));
    dirs.push(configDir);
    const calls: unknown[] = [];
    const target = {
      platform: 'linux' as const,
      app: { setLoginItemSettings: (s: unknown) => calls.push(s) },
      launch: { command: '/opt/tw/tw', args: [] },
      configDir,
    };
    const file = join(configDir, 'autostart', 'teleporter-watch.desktop');
    await applyLoginItem(target, { startAtLogin: true, startHidden: false });
    expect(readFileSync(file, 'utf8')).toContain('Exec=/opt/tw/tw\n');
    await applyLoginItem(target, { startAtLogin: true, startHidden: true });
    expect(readFileSync(file, 'utf8')).toContain('Exec=/opt/tw/tw --hidden\n');
    await applyLoginItem(target, { startAtLogin: false, startHidden: true });
    expect(existsSync(file)).toBe(false);
    expect(calls).toEqual([]);
  });

  it('on macOS and Windows uses app.setLoginItemSettings', async () => {
    const calls: unknown[] = [];
    const target = {
      platform: 'win32' as const,
      app: { setLoginItemSettings: (s: unknown) => calls.push(s) },
      launch: { command: 'C:\\TW\\tw.exe', args: [] },
      configDir: 'unused',
    };
    await applyLoginItem(target, { startAtLogin: true, startHidden: true });
    await applyLoginItem(target, { startAtLogin: false, startHidden: false });
    expect(calls).toEqual([
      { openAtLogin: true, openAsHidden: true, path: 'C:\\TW\\tw.exe', args: ['--hidden'] },
      { openAtLogin: false, openAsHidden: false, path: 'C:\\TW\\tw.exe', args: [] },
    ]);
  });
});
