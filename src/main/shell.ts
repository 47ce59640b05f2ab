/**
 * The desktop shell's lifecycle, with every Electron object passed in (index.ts passes the real
 * ones, the unit tests a fake boundary). It decides nothing about monitoring: it starts the core,
 * shows its page in a locked-down window, relays IPC and events, and keeps running in the tray.
 */
import type { App, BrowserWindow, BrowserWindowConstructorOptions, IpcMain, Session, Shell } from 'electron';
import type { ApiKeyStatus, MonitorEvent, NotificationPayload, PollStatus, Settings } from '../shared/contract';
import { unavailableCore, type MonitorCore, type MonitorCoreOptions, type Logger } from '../core';
import { isAppUrl, rendererLocation, type RendererLocation } from './app-url';
import { desktopCsp, installCspHeader } from './csp';
import { createLinkOpener } from './external-links';
import { registerInvokeHandler, sendEvent } from './ipc';
import { applyLoginItem, launchCommand, shouldStartHidden } from './login-items';
import { guardNavigation, type GuardedContents } from './navigation-guards';
import { createNotifier, focusEventFor, type NotificationBoundary } from './notifications';
import { denyAllPermissions, type PermissionSession } from './permissions';
import { createTrayController, type TrayBoundary, type TrayController } from './tray';
import type { TrayAction } from './tray-model';
import { mainWindowOptions } from './window-options';
import { MonitorError } from '../shared/errors';

export type ShellWindow = Pick<
  BrowserWindow,
  'loadFile' | 'loadURL' | 'show' | 'hide' | 'focus' | 'isVisible' | 'isMinimized' | 'restore' | 'isDestroyed' | 'on' | 'once' | 'destroy'
> & {
  webContents: GuardedContents & Pick<BrowserWindow['webContents'], 'id' | 'send' | 'isDestroyed' | 'isLoading' | 'once'>;
};

export interface ShellBoundary {
  app: Pick<
    App,
    'requestSingleInstanceLock' | 'on' | 'quit' | 'exit' | 'whenReady' | 'getPath' | 'getVersion' | 'getAppPath' | 'isPackaged' | 'setLoginItemSettings'
  >;
  /** Available once the app is ready. */
  defaultSession(): PermissionSession & Pick<Session, 'webRequest'>;
  createWindow(options: BrowserWindowConstructorOptions): ShellWindow;
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>;
  shell: Pick<Shell, 'openExternal'>;
  notifications: NotificationBoundary;
  tray: TrayBoundary;
}

interface ShellConfig {
  paths: {
    /** out/preload/index.js (CommonJS, for the sandbox). */
    preload: string;
    /** out/renderer/index.html */
    indexHtml: string;
    /** out/main/local-service.js: the local service, run by Electron as Node. */
    localService: string;
    icon?: string;
  };
  platform: NodeJS.Platform;
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  execPath: string;
  createCore(options: MonitorCoreOptions): MonitorCore | Promise<MonitorCore>;
  logger: Logger;
  now?: () => number;
}

export interface RunningShell {
  core: MonitorCore;
  window: ShellWindow;
  tray: TrayController;
  location: RendererLocation;
  showWindow(): void;
  /** Resolves when the core has closed after a quit. */
  closed: Promise<void>;
}

/** Starts the shell; resolves to null when another instance already runs (that one is focused). */
export async function startShell(e: ShellBoundary, cfg: ShellConfig): Promise<RunningShell | null> {
  const { app } = e;
  const { logger } = cfg;
  const now = cfg.now ?? Date.now;
  if (!app.requestSingleInstanceLock()) {
    logger.info('another instance is running; it will show its window');
    app.quit();
    return null;
  }

  const location = rendererLocation({ isPackaged: app.isPackaged, devUrl: cfg.env.ELECTRON_RENDERER_URL, indexHtml: cfg.paths.indexHtml });
  const appUrl = (url: string) => isAppUrl(url, location);
  const openLink = createLinkOpener(e.shell);

  let window: ShellWindow | null = null;
  let quitting = false;
  const showWindow = () => {
    if (!window || window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  };

  // Before any window exists, so every webContents (ours or not) is guarded from birth.
  app.on('web-contents-created', (_event, contents) =>
    guardNavigation(contents, {
      isAppUrl: appUrl,
      openLink: (url) => void openLink(url).catch((err: Error) => logger.warn(err.message)),
      onBlocked: (what, url) => logger.warn(`blocked ${what}`, { url }),
    }),
  );
  app.on('second-instance', () => showWindow());
  // Closing the last window keeps the app in the tray; Quit is in the tray menu.
  app.on('window-all-closed', () => undefined);
  app.on('activate', () => showWindow());

  await app.whenReady();
  const session = e.defaultSession();
  installCspHeader(session, desktopCsp(location.kind === 'dev' ? { devOrigin: location.origin } : {}));
  denyAllPermissions(session, (permission, origin) => logger.warn('denied a permission request', { permission, origin }));

  const sendToPage = (event: MonitorEvent) => {
    const contents = window?.isDestroyed() ? null : (window?.webContents ?? null);
    if (!contents) return;
    // A click that arrives while the page (re)loads is delivered once it can listen.
    if (contents.isLoading()) contents.once('did-finish-load', () => sendEvent(contents, event));
    else sendEvent(contents, event);
  };
  const onNotificationClick = (payload: NotificationPayload) => {
    showWindow();
    const focus = focusEventFor(payload);
    if (focus) sendToPage(focus);
  };

  const core = await startCore(cfg, {
    dataDir: app.getPath('userData'),
    shell: 'electron',
    version: app.getVersion(),
    logger,
    localService: {
      kind: 'spawn',
      command: cfg.execPath,
      args: [cfg.paths.localService],
      // The Electron binary runs the service as plain Node.
      env: { ELECTRON_RUN_AS_NODE: '1' },
    },
    notifier: createNotifier(e.notifications, {
      ...(cfg.paths.icon ? { icon: cfg.paths.icon } : {}),
      onClick: onNotificationClick,
      log: (m) => logger.warn(m),
    }),
    openExternal: openLink,
  });

  window = e.createWindow(mainWindowOptions({ preloadPath: cfg.paths.preload, ...(cfg.paths.icon ? { iconPath: cfg.paths.icon } : {}) }));
  const win = window;
  registerInvokeHandler(e.ipcMain, core, { appContents: () => (win.isDestroyed() ? null : win.webContents), isAppUrl: appUrl });

  const trayAction = (action: TrayAction) => {
    if (action === 'toggle-window') {
      if (win.isVisible()) win.hide();
      else showWindow();
    } else if (action === 'poll-now') void core.invoke('pollNow', undefined);
    else app.quit();
  };
  const tray = createTrayController(e.tray, trayAction, now);
  win.on('close', (event) => {
    if (quitting) return;
    event.preventDefault();
    win.hide();
  });
  win.on('show', () => tray.update({ windowVisible: true }));
  win.on('hide', () => tray.update({ windowVisible: false }));

  const loginTarget = {
    platform: cfg.platform,
    app,
    launch: launchCommand({ isPackaged: app.isPackaged, execPath: cfg.execPath, appPath: app.getAppPath(), appImage: cfg.env.APPIMAGE }),
    // On Linux appData is $XDG_CONFIG_HOME or ~/.config, where autostart entries live.
    configDir: app.getPath('appData'),
  };
  const applyLogin = (s: Settings) =>
    applyLoginItem(loginTarget, s).catch((err: Error) => logger.warn(`could not update the start-at-login entry: ${err.message}`));
  const showKeychain = (s: ApiKeyStatus) => tray.update({ keychainError: s.keychainError });

  core.onEvent((event) => {
    sendToPage(event);
    if (event.type === 'poll-status') tray.update({ status: event.status });
    else if (event.type === 'settings-changed') void applyLogin(event.settings);
    else if (event.type === 'api-key-changed') showKeychain(event.status);
  });

  let closeCore: Promise<void> | null = null;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  app.on('before-quit', () => {
    quitting = true;
  });
  app.on('will-quit', (event) => {
    if (closeCore) return;
    // Let the core stop its poller, child service and database before the process ends.
    event.preventDefault();
    closeCore = core
      .close()
      .catch((err: Error) => logger.error(`closing the core failed: ${err.message}`))
      .finally(() => {
        tray.destroy();
        resolveClosed();
        app.quit();
      });
  });

  try {
    await core.start();
  } catch (err) {
    // The page still opens: its calls return errors that say what is wrong.
    logger.error(`the core did not start: ${(err as Error).message}`);
  }

  const settings = await core.invoke('getSettings', undefined);
  const hidden = settings.ok && shouldStartHidden(settings.value as Settings, cfg.argv);
  if (settings.ok) void applyLogin(settings.value as Settings);
  const keychain = await core.invoke('getApiKeyStatus', undefined);
  if (keychain.ok) showKeychain(keychain.value as ApiKeyStatus);
  const status = await core.invoke('getPollStatus', undefined);
  if (status.ok) tray.update({ status: status.value as PollStatus });

  if (!hidden) win.once('ready-to-show', () => showWindow());
  await (location.kind === 'file' ? win.loadFile(location.path) : win.loadURL(location.url));

  return { core, window: win, tray, location, showWindow, closed };
}

/**
 * The core, or when it cannot start (data folder read-only, full, a newer database) a stand-in that
 * answers every call with the reason: the window opens and says it, the log has it, and the app stays
 * up in the tray instead of exiting into a restart loop.
 */
async function startCore(cfg: ShellConfig, options: MonitorCoreOptions): Promise<MonitorCore> {
  try {
    return await cfg.createCore(options);
  } catch (err) {
    const reason =
      err instanceof MonitorError
        ? err
        : new MonitorError({ kind: 'internal', message: `Teleporter Watch could not start its core: ${(err as Error).message}` });
    cfg.logger.error(`the core could not start: ${reason.message}`);
    return unavailableCore(reason);
  }
}
