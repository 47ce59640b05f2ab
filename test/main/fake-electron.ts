/**
 * A fake Electron boundary for the shell's unit tests: the one place mocks are allowed. Each fake
 * records what the shell did and lets a test fire the events Electron would fire.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserWindowConstructorOptions, MenuItemConstructorOptions, NotificationConstructorOptions } from 'electron';
import type { ShellBoundary, ShellWindow } from '../../src/main/shell';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a listener of any event's arguments, as Node's EventEmitter types it
type Listener = (...args: any[]) => unknown;

/** An Electron-style event: listeners may call preventDefault(). */
export class FakeEvent {
  defaultPrevented = false;
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

export class Emitter {
  private listeners = new Map<string, { fn: Listener; once: boolean }[]>();
  on(event: string, fn: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), { fn, once: false }]);
    return this;
  }
  once(event: string, fn: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), { fn, once: true }]);
    return this;
  }
  removeListener(event: string, fn: Listener): this {
    this.listeners.set(
      event,
      (this.listeners.get(event) ?? []).filter((l) => l.fn !== fn),
    );
    return this;
  }
  listenerCount(event: string): number {
    return this.listeners.get(event)?.length ?? 0;
  }
  /** Fires `event` with a fresh FakeEvent first, as Electron does; returns that event. */
  fire(event: string, ...args: unknown[]): FakeEvent {
    const e = new FakeEvent();
    this.emitRaw(event, e, ...args);
    return e;
  }
  emitRaw(event: string, ...args: unknown[]): void {
    const ls = this.listeners.get(event) ?? [];
    this.listeners.set(
      event,
      ls.filter((l) => !l.once),
    );
    for (const l of ls) l.fn(...args);
  }
}

let nextId = 1;

export class FakeWebContents extends Emitter {
  readonly id = nextId++;
  sent: { channel: string; payload: unknown }[] = [];
  loading = false;
  destroyed = false;
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload });
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  isLoading(): boolean {
    return this.loading;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  getURL(): string {
    return 'file:///fake';
  }
}

export class FakeWindow extends Emitter {
  readonly webContents = new FakeWebContents();
  visible = false;
  minimized = false;
  destroyed = false;
  focused = 0;
  loaded: { kind: 'file' | 'url'; target: string }[] = [];
  constructor(readonly options: BrowserWindowConstructorOptions) {
    super();
  }
  async loadFile(path: string): Promise<void> {
    this.loaded.push({ kind: 'file', target: path });
  }
  async loadURL(url: string): Promise<void> {
    this.loaded.push({ kind: 'url', target: url });
  }
  show(): void {
    this.visible = true;
    this.emitRaw('show');
  }
  hide(): void {
    this.visible = false;
    this.emitRaw('hide');
  }
  focus(): void {
    this.focused++;
  }
  isVisible(): boolean {
    return this.visible;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  restore(): void {
    this.minimized = false;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  destroy(): void {
    this.destroyed = true;
  }
  /** What the user's close button does: 'close' fires; the window goes unless a listener prevents it. */
  userClose(): FakeEvent {
    const e = this.fire('close');
    if (!e.defaultPrevented) this.destroyed = true;
    return e;
  }
}

export class FakeApp extends Emitter {
  isPackaged = false;
  gotLock = true;
  quitCalls = 0;
  exitCode: number | null = null;
  loginItemSettings: unknown[] = [];
  readonly home = mkdtempSync(join(tmpdir(), 'tw-shell-'));
  requestSingleInstanceLock(): boolean {
    return this.gotLock;
  }
  /** Like Electron: before-quit, then will-quit (which a listener may postpone by preventing it). */
  quit(): void {
    this.quitCalls++;
    this.fire('before-quit');
    this.fire('will-quit');
  }
  exit(code = 0): void {
    this.exitCode = code;
  }
  whenReady(): Promise<void> {
    return Promise.resolve();
  }
  getPath(name: string): string {
    return join(this.home, name);
  }
  getVersion(): string {
    return '0.1.0-test';
  }
  getAppPath(): string {
    return '/opt/teleporter-watch/app';
  }
  setLoginItemSettings(s: unknown): void {
    this.loginItemSettings.push(s);
  }
}

type HeadersListener = (details: { responseHeaders?: Record<string, string[]> }, cb: (r: { responseHeaders?: Record<string, string[]> }) => void) => void;

export class FakeSession {
  headersListener: HeadersListener | null = null;
  requestHandler: ((wc: { getURL(): string }, permission: string, cb: (granted: boolean) => void, details: unknown) => void) | null = null;
  checkHandler: ((...args: unknown[]) => boolean) | null = null;
  deviceHandler: ((...args: unknown[]) => boolean) | null = null;
  webRequest = {
    onHeadersReceived: (listener: HeadersListener) => {
      this.headersListener = listener;
    },
  };
  setPermissionRequestHandler(h: FakeSession['requestHandler']): void {
    this.requestHandler = h;
  }
  setPermissionCheckHandler(h: FakeSession['checkHandler']): void {
    this.checkHandler = h;
  }
  setDevicePermissionHandler(h: FakeSession['deviceHandler']): void {
    this.deviceHandler = h;
  }
  /** Runs the installed header listener on a response, returning the headers Electron would use. */
  respond(headers: Record<string, string[]>): Record<string, string[]> | undefined {
    let out: Record<string, string[]> | undefined;
    this.headersListener?.({ responseHeaders: headers }, (r) => (out = r.responseHeaders));
    return out;
  }
}

export class FakeIpcMain {
  handlers = new Map<string, Listener>();
  handle(channel: string, fn: Listener): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, fn);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** Calls the handler the way ipcRenderer.invoke from `frame` in `sender` would. */
  invoke(channel: string, sender: { id: number }, frame: FakeFrame | null, ...args: unknown[]): Promise<unknown> {
    const fn = this.handlers.get(channel);
    if (!fn) throw new Error(`no handler for ${channel}`);
    return Promise.resolve(fn({ sender, senderFrame: frame }, ...args));
  }
}

export interface FakeFrame {
  url: string;
  origin: string;
  parent: FakeFrame | null;
}

export const frameAt = (url: string, parent: FakeFrame | null = null): FakeFrame => ({
  url,
  origin: (() => {
    try {
      return new URL(url).origin;
    } catch {
      return '';
    }
  })(),
  parent,
});

export class FakeNotification extends Emitter {
  shown = false;
  constructor(readonly options: NotificationConstructorOptions) {
    super();
  }
  show(): void {
    this.shown = true;
  }
}

export class FakeTray extends Emitter {
  tooltip = '';
  menu: MenuItemConstructorOptions[] = [];
  destroyed = false;
  setToolTip(t: string): void {
    this.tooltip = t;
  }
  setContextMenu(menu: unknown): void {
    this.menu = menu as MenuItemConstructorOptions[];
  }
  destroy(): void {
    this.destroyed = true;
  }
  /** Clicks the menu entry with this id. */
  clickItem(id: string): void {
    const item = this.menu.find((i) => i.id === id);
    if (!item?.click) throw new Error(`no clickable tray item ${id}`);
    if (item.enabled === false) throw new Error(`tray item ${id} is disabled`);
    (item.click as () => void)();
  }
}

/** Everything the shell touches, fake, plus handles for the test to inspect and drive. */
export function fakeElectron(opts: { notificationsSupported?: boolean } = {}) {
  const app = new FakeApp();
  const session = new FakeSession();
  const ipcMain = new FakeIpcMain();
  const windows: FakeWindow[] = [];
  const notifications: FakeNotification[] = [];
  const trays: FakeTray[] = [];
  const opened: string[] = [];
  const boundary: ShellBoundary = {
    app: app as unknown as ShellBoundary['app'],
    defaultSession: () => session as unknown as ReturnType<ShellBoundary['defaultSession']>,
    createWindow: (options) => {
      const w = new FakeWindow(options);
      windows.push(w);
      // The shell's guards are attached through app 'web-contents-created', as Electron fires it.
      app.emitRaw('web-contents-created', new FakeEvent(), w.webContents);
      return w as unknown as ShellWindow;
    },
    ipcMain: ipcMain,
    shell: {
      openExternal: async (url: string) => {
        opened.push(url);
      },
    },
    notifications: {
      isSupported: () => opts.notificationsSupported ?? true,
      create: (options) => {
        const n = new FakeNotification(options);
        notifications.push(n);
        return n as unknown as ReturnType<ShellBoundary['notifications']['create']>;
      },
    },
    tray: {
      createTray: () => {
        const t = new FakeTray();
        trays.push(t);
        return t as unknown as ReturnType<ShellBoundary['tray']['createTray']>;
      },
      buildMenu: (template) => template as unknown as ReturnType<ShellBoundary['tray']['buildMenu']>,
    },
  };
  return { boundary, app, session, ipcMain, windows, notifications, trays, opened };
}
