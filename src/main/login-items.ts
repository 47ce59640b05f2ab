/**
 * "Start at login" and "start hidden" from the core's settings. macOS and Windows have
 * app.setLoginItemSettings; Linux desktops read an XDG autostart entry instead.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { App } from 'electron';
import type { Settings } from '../shared/contract';

/** The flag a login launch carries; also usable by hand (`teleporter-watch --hidden`). */
const HIDDEN_FLAG = '--hidden';

export function shouldStartHidden(settings: Pick<Settings, 'startHidden'>, argv: readonly string[]): boolean {
  return settings.startHidden || argv.includes(HIDDEN_FLAG);
}

interface LaunchCommand {
  /** The executable: the AppImage when run from one, else the Electron binary. */
  command: string;
  /** The app folder when unpackaged (development), else nothing. */
  args: string[];
}

export function launchCommand(opts: { isPackaged: boolean; execPath: string; appPath: string; appImage: string | undefined }): LaunchCommand {
  if (opts.isPackaged) return { command: opts.appImage ?? opts.execPath, args: [] };
  return { command: opts.execPath, args: [opts.appPath] };
}

/** Desktop Entry Exec quoting: arguments with reserved characters go in double quotes. */
const quoteExecArg = (a: string) => (/^[A-Za-z0-9_./:=+-]+$/.test(a) ? a : `"${a.replace(/(["`$\\])/g, '\\$1')}"`);

export function autostartDesktopEntry(launch: LaunchCommand, startHidden: boolean): string {
  const exec = [launch.command, ...launch.args, ...(startHidden ? [HIDDEN_FLAG] : [])].map(quoteExecArg).join(' ');
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Teleporter Watch',
    'Comment=Watch Avalanche cross-chain messages',
    `Exec=${exec}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

const AUTOSTART_FILE = 'teleporter-watch.desktop';

interface LoginItemTarget {
  platform: NodeJS.Platform;
  app: Pick<App, 'setLoginItemSettings'>;
  launch: LaunchCommand;
  /** $XDG_CONFIG_HOME or ~/.config (Linux only). */
  configDir: string;
}

export async function applyLoginItem(target: LoginItemTarget, settings: Pick<Settings, 'startAtLogin' | 'startHidden'>): Promise<void> {
  if (target.platform !== 'linux') {
    target.app.setLoginItemSettings({
      openAtLogin: settings.startAtLogin,
      // macOS honours openAsHidden; Windows passes args to the launch.
      openAsHidden: settings.startHidden,
      path: target.launch.command,
      args: [...target.launch.args, ...(settings.startHidden ? [HIDDEN_FLAG] : [])],
    });
    return;
  }
  const dir = join(target.configDir, 'autostart');
  const file = join(dir, AUTOSTART_FILE);
  if (!settings.startAtLogin) {
    await rm(file, { force: true });
    return;
  }
  await mkdir(dir, { recursive: true });
  await writeFile(file, autostartDesktopEntry(target.launch, settings.startHidden), 'utf8');
}
