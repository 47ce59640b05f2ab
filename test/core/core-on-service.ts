import { randomBytes } from 'node:crypto';
import { createMonitorCore } from '../../src/core';
import type { MonitorCore } from '../../src/core/monitor-core';
import type { Clock } from '../../src/shared/clock';
import { tempDir } from './helpers';

/**
 * A started core on a fresh data folder, reading the local service at `url`, polling only when asked.
 * Its close and its folder's removal are pushed onto `cleanups` (run in reverse order).
 */
export async function coreOnService(url: string, clock: Clock, cleanups: (() => Promise<void> | void)[]): Promise<MonitorCore> {
  const tmp = tempDir();
  cleanups.push(() => tmp.cleanup());
  const core = await createMonitorCore({
    dataDir: tmp.dir,
    shell: 'web',
    version: 'x',
    clock,
    localDataApi: { kind: 'url', url },
    autoPoll: false,
    keychainService: `tw-test-${randomBytes(4).toString('hex')}`,
  });
  cleanups.push(() => core.close());
  await core.start();
  return core;
}
