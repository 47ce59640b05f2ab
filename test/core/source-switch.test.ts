/**
 * Switching the data source at runtime works in every direction without a restart (issue 41): a core
 * started on another source starts the embedded demo when the user switches to it, stops it when the
 * user switches away (its simulated world does not go on writing), and starts it again on the way back.
 * The real local service as a child process, the real clock.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../headless/engines';
import { createMonitorCore } from '../../src/core';
import type { MonitorCore } from '../../src/core/monitor-core';
import { localServiceSpawnSpec } from '../../src/host/local-service-spawn';
import type { AppInfo, PollStatus } from '../../src/shared/contract';
import { randomAddress, tempDir } from './helpers';
import { waitFor } from '../support/wait-for';

/** Whether anything answers at `url` (a refused connection: nothing does). */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/_local/info`);
    return true;
  } catch {
    return false;
  }
}

describe('switching the data source at runtime', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('starts the embedded demo when switched to, stops it when switched away, and starts it again', { timeout: 180_000 }, async () => {
    const tmp = tempDir();
    cleanups.push(() => tmp.cleanup());
    const core: MonitorCore = await createMonitorCore({
      dataDir: tmp.dir,
      shell: 'web',
      version: 'x',
      localService: localServiceSpawnSpec({ rate: 5, extraArgs: ['--history', '0'] }),
      keychainService: `tw-test-${randomBytes(4).toString('hex')}`,
    });
    cleanups.push(() => core.close());
    const call = async <T = unknown>(method: string, input?: unknown): Promise<T> => {
      const r = await core.invoke(method, input);
      if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
      return r.value as T;
    };
    const unreachable = `http://127.0.0.1:${await freePort()}`;
    await call('updateSettings', { dataSource: { kind: 'custom', baseUrl: unreachable }, pollIntervalSeconds: 5 });
    await core.start();
    await call('addWatch', { address: randomAddress() });
    const health = () => (core.handlers.getPollStatus(undefined) as PollStatus).source;
    await waitFor(() => health()?.source === `custom:${unreachable}` && health()?.state === 'degraded', 30_000, 'the unreachable source failing');
    // Not the source: the demo was never started (its store file does not exist).
    expect(existsSync(join(tmp.dir, 'local-service.sqlite'))).toBe(false);

    await call('updateSettings', { dataSource: { kind: 'local' } });
    await waitFor(() => health()?.source === 'local' && health()?.state === 'up', 60_000, 'the demo read after the switch');
    const demoUrl = (await call<AppInfo>('getAppInfo')).dataSource.baseUrl;
    expect(await answers(demoUrl)).toBe(true);
    expect((await call<PollStatus>('pollNow')).lastError).toBeNull();

    await call('updateSettings', { dataSource: { kind: 'custom', baseUrl: unreachable } });
    await waitFor(async () => !(await answers(demoUrl)), 30_000, 'the demo stopped once it is not the source');
    expect(health()?.source).toBe(`custom:${unreachable}`);

    await call('updateSettings', { dataSource: { kind: 'local' } });
    await waitFor(() => health()?.source === 'local' && health()?.state === 'up', 60_000, 'the demo read again after switching back');
    expect(await answers((await call<AppInfo>('getAppInfo')).dataSource.baseUrl)).toBe(true);
  });
});
