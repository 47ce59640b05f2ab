/**
 * Electron's entry point: passes the real Electron objects to the shell (shell.ts holds the logic,
 * tested with a fake boundary) and the real core.
 */
import { join, sep } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeImage, Notification, session, shell, Tray } from 'electron';
import { createMonitorCore } from '../core';
import iconPath from '../../resources/icon.png?asset';
import trayIconPath from '../../resources/tray.png?asset';
import { createConsoleLogger } from './logger';
import { startShell } from './shell';

// Every renderer in the OS sandbox, whatever its options say (before ready, as Electron requires).
app.enableSandbox();
// Windows groups notifications by this ID; it must match electron-builder's appId.
if (process.platform === 'win32') app.setAppUserModelId('io.teleporterwatch.app');

const logger = createConsoleLogger('main');
// The tray and the notification daemon read icons from disk, outside the asar archive
// (electron-builder.yml unpacks resources/).
const unpacked = (path: string) => path.replace(`app.asar${sep}`, `app.asar.unpacked${sep}`);

// A separate data folder (a second profile, or a test run); before ready, as Electron requires.
if (process.env.TELEPORTER_WATCH_DATA_DIR) app.setPath('userData', process.env.TELEPORTER_WATCH_DATA_DIR);

startShell(
  {
    app,
    defaultSession: () => session.defaultSession,
    createWindow: (options) => new BrowserWindow(options),
    ipcMain,
    shell,
    notifications: { isSupported: () => Notification.isSupported(), create: (options) => new Notification(options) },
    tray: {
      createTray: () => new Tray(nativeImage.createFromPath(unpacked(trayIconPath))),
      buildMenu: (template) => Menu.buildFromTemplate(template),
    },
  },
  {
    paths: {
      preload: join(__dirname, '../preload/index.js'),
      indexHtml: join(__dirname, '../renderer/index.html'),
      localService: join(__dirname, 'local-service.js'),
      icon: unpacked(iconPath),
    },
    platform: process.platform,
    argv: process.argv,
    env: process.env,
    execPath: process.execPath,
    createCore: createMonitorCore,
    logger,
  },
).catch((err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  logger.error(`Teleporter Watch could not start: ${message}`);
  // Started from a menu there is no terminal: say it in a dialog too.
  dialog.showErrorBox('Teleporter Watch could not start', `${message}\n\nData folder: ${app.getPath('userData')}`);
  app.exit(1);
});
