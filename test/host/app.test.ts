import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchWebApp } from '../../src/host/app';
import { ManualClock } from '../../src/shared/clock';
import { startLocalService, type SimulatedService } from '../../src/local-service';
import { invoke } from './http-client';
import { makeRendererDir } from './stack';

let base: string;
let service: SimulatedService;

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'tw-app-')));
  // A fixed start time: the simulated traffic (and its mainnet/Fuji mix) depends on seed and start time.
  service = await startLocalService({ seed: 3, rate: 0, preload: 40, clock: new ManualClock(Date.UTC(2026, 0, 1)), log: () => {} });
});
afterAll(async () => {
  await service?.close();
  rmSync(base, { recursive: true, force: true });
});

describe('launchWebApp --source', () => {
  it('stores a custom base URL as the data source and keeps it for the next launch', async () => {
    const opts = {
      dataDir: join(base, 'data'),
      rendererDir: makeRendererDir(base),
      keychainService: `teleporter-watch-test-app-${process.pid}`,
      autoPoll: false,
    };
    const first = await launchWebApp({ ...opts, source: { kind: 'custom', baseUrl: service.url } });
    try {
      const info = JSON.parse((await invoke(first.host.port, first.host.token, 'getAppInfo')).body);
      expect(info.value.dataSource).toMatchObject({ kind: 'custom', baseUrl: service.url, simulated: false });
      const page = JSON.parse((await invoke(first.host.port, first.host.token, 'browseMessages', { pageSize: 3 })).body);
      expect(page.value.messages).toHaveLength(3);
    } finally {
      await first.close();
    }
    // No --source the second time: the stored choice stands; a new launch has a new token.
    const second = await launchWebApp(opts);
    try {
      expect(second.host.token).not.toBe(first.host.token);
      const info = JSON.parse((await invoke(second.host.port, second.host.token, 'getAppInfo')).body);
      expect(info.value.dataSource).toMatchObject({ kind: 'custom', baseUrl: service.url });
    } finally {
      await second.close();
    }
  });

  it('refuses an invalid source before starting anything', async () => {
    await expect(
      launchWebApp({ dataDir: join(base, 'bad'), rendererDir: join(base, 'renderer'), source: { kind: 'custom', baseUrl: 'ftp://x' }, autoPoll: false }),
    ).rejects.toThrow(/Base URL/);
  });
});
