import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startTeleporterService } from '../../src/service';
import { createMonitorService } from '../../src/core';
import type { MonitorService } from '../../src/core/facade';
import { JumpClock } from './http-helpers';
import { tempDir } from './helpers';

describe('demo addresses', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it("passes the local service's busy addresses through the contract, and none for a real data source", async () => {
    const clock = new JumpClock();
    const svc = await startTeleporterService({ clock, rate: 1, addressCount: 20, warmStore: false });
    cleanups.push(() => svc.close());
    const tmp = tempDir();
    cleanups.push(() => tmp.cleanup());
    const core: MonitorService = await createMonitorService({
      dataDir: tmp.dir,
      shell: 'web',
      version: 'x',
      clock,
      localService: { kind: 'url', url: svc.url },
      autoPoll: false,
      keychainService: `tw-test-${randomBytes(4).toString('hex')}`,
    });
    cleanups.push(() => core.close());
    await core.start();
    expect(await core.invoke('getDemoAddresses', undefined)).toEqual({ ok: true, value: { addresses: svc.simulator.hotAddresses } });
    await core.invoke('updateSettings', { dataSource: { kind: 'custom', baseUrl: 'http://127.0.0.1:9' } });
    expect(await core.invoke('getDemoAddresses', undefined)).toEqual({ ok: true, value: { addresses: [] } });
    await core.invoke('updateSettings', { dataSource: { kind: 'local' } });
    expect(await core.invoke('getDemoAddresses', undefined)).toEqual({ ok: true, value: { addresses: svc.simulator.hotAddresses } });
  });
});
