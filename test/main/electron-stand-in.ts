/**
 * A recording stand-in for the `electron` module, built from the shell tests' fake boundary
 * (fake-electron.ts), for loading the BUILT main bundle (out/main/index.js) in plain Node 22: the
 * Electron boundary is the one thing that cannot run here. A test reads `snapshot()` and drives it.
 */
import type { BrowserWindowConstructorOptions, NotificationConstructorOptions } from 'electron';
import { FakeApp, FakeEvent, FakeIpcMain, FakeNotification, FakeSession, FakeTray, FakeWindow } from './fake-electron';

/** What the stand-in saw, as plain data (it crosses a process boundary). */
export interface StandInSnapshot {
  /** Every call the bundle made on `app`, `dialog` and the switches, in order. */
  calls: string[];
  ready: boolean;
  userData: string | null;
  windows: { options: BrowserWindowConstructorOptions; visible: boolean; focused: number; loaded: string[]; destroyed: boolean; sent: unknown[] }[];
  notifications: { title: string | undefined; body: string | undefined; shownTimes: number }[];
  tray: { tooltip: string; menu: { id?: string; label?: string; enabled?: boolean }[]; destroyed: boolean } | null;
  dialogs: { title: string; content: string }[];
  quit: 'running' | 'quitting' | 'done';
  exitCode: number | null;
}

export function createElectronStandIn(hooks: { onQuitDone(): void; onExit(code: number): void }) {
  const calls: string[] = [];
  const dialogs: StandInSnapshot['dialogs'] = [];
  const windows: FakeWindow[] = [];
  const notifications: { n: FakeNotification; shownTimes: number }[] = [];
  const trays: FakeTray[] = [];
  let ready = false;
  let quit: StandInSnapshot['quit'] = 'running';
  const paths = new Map<string, string>();

  class App extends FakeApp {
    readonly commandLine = {
      appendSwitch: (name: string, value?: string) => void calls.push(`commandLine.appendSwitch ${name}${value === undefined ? '' : ` ${value}`}`),
    };
    enableSandbox(): void {
      calls.push('enableSandbox');
    }
    setAppUserModelId(id: string): void {
      calls.push(`setAppUserModelId ${id}`);
    }
    setPath(name: string, path: string): void {
      calls.push(`setPath ${name}`);
      paths.set(name, path);
    }
    override getPath(name: string): string {
      return paths.get(name) ?? super.getPath(name);
    }
    override requestSingleInstanceLock(): boolean {
      calls.push('requestSingleInstanceLock');
      return super.requestSingleInstanceLock();
    }
    override whenReady(): Promise<void> {
      calls.push('whenReady');
      return new Promise((resolve) =>
        setImmediate(() => {
          ready = true;
          calls.push('ready');
          this.emitRaw('ready');
          resolve();
        }),
      );
    }
    /** Like Electron: before-quit, will-quit; the process ends unless a will-quit listener postpones it. */
    override quit(): void {
      calls.push('quit');
      this.quitCalls++;
      quit = 'quitting';
      this.fire('before-quit');
      if (this.fire('will-quit').defaultPrevented) return;
      quit = 'done';
      hooks.onQuitDone();
    }
    override exit(code = 0): void {
      calls.push(`exit ${code}`);
      this.exitCode = code;
      hooks.onExit(code);
    }
  }
  const app = new App();
  const session = new FakeSession();

  class BrowserWindow extends FakeWindow {
    constructor(options: BrowserWindowConstructorOptions) {
      super(options);
      windows.push(this);
      app.emitRaw('web-contents-created', new FakeEvent(), this.webContents);
    }
  }
  class Notification extends FakeNotification {
    static isSupported(): boolean {
      return true;
    }
    constructor(options: NotificationConstructorOptions) {
      super(options);
      notifications.push({ n: this, shownTimes: 0 });
    }
    override show(): void {
      super.show();
      const entry = notifications.find((x) => x.n === this);
      if (entry) entry.shownTimes++;
    }
  }
  class Tray extends FakeTray {
    constructor(readonly image: unknown) {
      super();
      trays.push(this);
    }
  }

  const electron = {
    app,
    BrowserWindow,
    Notification,
    Tray,
    ipcMain: new FakeIpcMain(),
    session: { defaultSession: session },
    Menu: { buildFromTemplate: (template: unknown) => template },
    nativeImage: { createFromPath: (path: string) => ({ path }) },
    shell: { openExternal: async (url: string) => void calls.push(`openExternal ${url}`) },
    dialog: {
      showErrorBox: (title: string, content: string) => {
        calls.push('dialog.showErrorBox');
        dialogs.push({ title, content });
      },
    },
  };

  const snapshot = (): StandInSnapshot => ({
    calls: [...calls],
    ready,
    userData: paths.get('userData') ?? null,
    windows: windows.map((w) => ({
      options: w.options,
      visible: w.visible,
      focused: w.focused,
      loaded: w.loaded.map((l) => l.target),
      destroyed: w.destroyed,
      sent: w.webContents.sent.map((s) => s.payload),
    })),
    notifications: notifications.map(({ n, shownTimes }) => ({ title: n.options.title, body: n.options.body, shownTimes })),
    tray: trays[0]
      ? { tooltip: trays[0].tooltip, menu: trays[0].menu.map(({ id, label, enabled }) => ({ id, label, enabled })), destroyed: trays[0].destroyed }
      : null,
    dialogs: [...dialogs],
    quit,
    exitCode: app.exitCode,
  });

  return { electron, app, windows, trays, session, snapshot };
}
