import { randomBytes } from 'node:crypto';
import { createMonitorCore } from '../../src/core';
import type { MonitorCore, MonitorCoreOptions } from '../../src/core/monitor-core';
import { startLocalService, type SimulatedService, type SimulatedServiceOptions } from '../../src/local-service';
import type { Clock } from '../../src/shared/clock';
import { tempDir } from './helpers';
import { JumpClock } from './http-helpers';

/** What a test may choose: the shell (and its link opener), a data folder it reads itself, alert channels, metrics, the relayer metrics reads. */
export type CoreOnServiceOptions = Partial<Pick<MonitorCoreOptions, 'shell' | 'openExternal' | 'dataDir' | 'alerts' | 'metrics' | 'relayerMetrics'>>;

/**
 * A started core reading the local service at `url`, polling only when asked, on a fresh data folder
 * unless `o.dataDir` names one. Its close (and its folder's removal) are pushed onto `cleanups` (run in
 * reverse order).
 */
export async function coreOnService(url: string, clock: Clock, cleanups: (() => Promise<void> | void)[], o: CoreOnServiceOptions = {}): Promise<MonitorCore> {
  let dataDir = o.dataDir;
  if (!dataDir) {
    const tmp = tempDir();
    cleanups.push(() => tmp.cleanup());
    dataDir = tmp.dir;
  }
  const core = await createMonitorCore({
    shell: 'web',
    ...o,
    dataDir,
    version: 'x',
    clock,
    localService: { kind: 'url', url },
    autoPoll: false,
    keychainService: `tw-test-${randomBytes(4).toString('hex')}`,
  });
  cleanups.push(() => core.close());
  await core.start();
  return core;
}

/**
 * The local service (`service` options, on a fresh jump clock from `start`) and a started core reading it
 * on a data folder of its own (`dataDir`, for tests that read its files); both closed by `cleanups`.
 */
export async function serviceAndCore(
  service: Omit<SimulatedServiceOptions, 'clock'>,
  cleanups: (() => Promise<void> | void)[],
  start?: number,
): Promise<{ svc: SimulatedService; core: MonitorCore; clock: JumpClock; dataDir: string }> {
  const clock = new JumpClock(start);
  const svc = await startLocalService({ clock, ...service });
  cleanups.push(() => svc.close());
  const tmp = tempDir();
  cleanups.push(() => tmp.cleanup());
  return { svc, core: await coreOnService(svc.url, clock, cleanups, { dataDir: tmp.dir }), clock, dataDir: tmp.dir };
}
