/**
 * The main window's options. Every renderer-facing switch follows Electron's security checklist:
 * the page gets no Node, runs in the OS sandbox, is isolated from the preload, and loads nothing
 * that is not ours.
 */
import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';

export const SECURE_WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  webviewTag: false,
  navigateOnDragDrop: false,
  safeDialogs: true,
  spellcheck: false,
} as const satisfies WebPreferences;

export function mainWindowOptions(opts: { preloadPath: string; iconPath?: string; title?: string }): BrowserWindowConstructorOptions {
  return {
    title: opts.title ?? 'Teleporter Watch',
    width: 1360,
    height: 860,
    minWidth: 900,
    minHeight: 600,
    // Shown on 'ready-to-show' unless the user chose to start hidden in the tray.
    show: false,
    autoHideMenuBar: true,
    ...(opts.iconPath ? { icon: opts.iconPath } : {}),
    webPreferences: { ...SECURE_WEB_PREFERENCES, preload: opts.preloadPath },
  };
}
