/**
 * readRouteHistory through the Electron IPC handler into a real core: bad input gets a clear error
 * naming its field and changes nothing; a route not watched is not_found; a good call starts the read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMonitorCore } from '../../src/core';
import type { MonitorCore } from '../../src/core/monitor-core';
import { IPC_INVOKE_CHANNEL } from '../../src/shared/ipc-channels';
import type { RelayerOverview, WatchedRoute } from '../../src/shared/relayers';
import { registerInvokeHandler } from '../../src/main/ipc';
import { FakeIpcMain, FakeWebContents, frameAt } from './fake-electron';

const APP = 'file:///opt/tw/out/renderer/index.html';
const BEAM = '2tmrrBo1Lgt1mzzvPSFt73kkQKFas5d1AP88tv9cicwoFp8BSn';

let dir: string;
let core: MonitorCore;
const ipcMain = new FakeIpcMain();
const ours = new FakeWebContents();

type Reply = { ok: boolean; value?: unknown; error?: { kind: string; message: string; field?: string } };
const ask = (input: unknown) => ipcMain.invoke(IPC_INVOKE_CHANNEL, ours, frameAt(APP), 'readRouteHistory', input) as Promise<Reply>;
const overview = async () => ((await core.invoke('relayerOverview', undefined)) as { value: RelayerOverview }).value;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tw-route-history-'));
  core = await createMonitorCore({
    dataDir: dir,
    shell: 'electron',
    version: 'test',
    autoPoll: false,
    keychainService: `tw-test-rh-${process.pid}-${Date.now()}`,
  });
  registerInvokeHandler(ipcMain, core, { appContents: () => ours, isAppUrl: (u) => u.split('#')[0] === APP });
});
afterAll(async () => {
  await core?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('readRouteHistory over IPC', () => {
  it('refuses bad input with the field and a reason, changing nothing; a route not watched is not found', async () => {
    const added = (await core.invoke('addRoute', { source: 'C-Chain', destination: 'Beam' })) as { value: WatchedRoute };
    const route = added.value;
    const before = await overview();
    expect(before.routes[0]!.history.reading).toBe(true); // its first read has not run (no polling here)

    const refused: [unknown, string, string | RegExp][] = [
      [{ routeId: route.id, hours: 0 }, 'hours', 'Route history must be at least 1 hour.'],
      [{ routeId: route.id, hours: 25 }, 'hours', 'Route history must be at most 24 hours (the figures cover the last day).'],
      [{ routeId: route.id, hours: 1.5 }, 'hours', 'Route history must be a whole number.'],
      [{ routeId: route.id, hours: '24' }, 'hours', 'Route history: enter a number.'],
      [{ routeId: route.id }, 'hours', 'Route history: enter a number.'],
      [{ hours: 24 }, 'routeId', 'Name the route: its ID, or its source and destination chains.'],
      [{ source: 'C-Chain', hours: 24 }, 'routeId', 'Name the route: its ID, or its source and destination chains.'],
      [{ routeId: route.id, source: 'C-Chain', destination: 'Beam', hours: 24 }, 'routeId', 'Name the route by its ID or by its two chains, not both.'],
      [{ source: 'Atlantis', destination: 'Beam', hours: 24 }, 'source', /"Atlantis" is not a known chain/],
      [{ routeId: '', hours: 24 }, 'routeId', 'Route ID must not be empty.'],
    ];
    for (const [input, field, message] of refused) {
      const r = await ask(input);
      expect(r, JSON.stringify(input)).toMatchObject({ ok: false, error: { kind: 'invalid_input', field } });
      expect(r.error!.message, JSON.stringify(input)).toMatch(message);
    }
    expect(await ask({ routeId: route.id, hours: 24, extra: 1 })).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input', message: 'Unknown field(s): extra.' },
    });
    expect(await ask(undefined)).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });

    expect(await ask({ routeId: 'nope', hours: 24 })).toEqual({
      ok: false,
      error: { kind: 'not_found', field: 'routeId', message: 'There is no watched route with ID nope: watch it first.' },
    });
    const reverse = await ask({ source: 'Beam', destination: 'C-Chain', hours: 24 });
    expect(reverse).toMatchObject({
      ok: false,
      error: { kind: 'not_found', field: 'routeId', message: 'There is no watched route Beam → C-Chain: watch it first.' },
    });
    // On another network the same chains are another route.
    expect(await ask({ source: 'C-Chain', destination: BEAM, network: 'fuji', hours: 24 })).toMatchObject({ ok: false, error: { kind: 'not_found' } });
    expect((await overview()).routes).toEqual(before.routes);

    // A good call, by the route's chains (a cb58 ID as addRoute takes it): the route's baseline reaches back 24 h.
    const ok = await ask({ source: 'C-Chain', destination: BEAM, hours: 24 });
    expect(ok).toMatchObject({ ok: true, value: { routeId: route.id, started: true, reading: true } });
    const readsFrom = (ok.value as { readsFrom: number }).readsFrom;
    expect(Date.now() - 24 * 3_600_000 - readsFrom).toBeGreaterThanOrEqual(0);
    expect(Date.now() - 24 * 3_600_000 - readsFrom).toBeLessThan(60_000);
    expect((await overview()).routes[0]!.history).toEqual({ from: before.routes[0]!.history.from, reading: true, readsFrom });
  });
});
