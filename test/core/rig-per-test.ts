/** The engine tests' rig per test (vitest hooks: kept apart from helpers.ts, which the cache-search bench imports outside vitest). */
import { afterEach, beforeEach } from 'vitest';
import { engineRig, watchingRig, type EngineRig } from './helpers';

/**
 * One rig object for every test of the calling suite, watching `address`: before each test a fresh rig
 * on a new folder, after it closed (its last restart's) and the folder removed. `reopenRig` restarts it.
 */
export function watchingRigPerTest(address: string): EngineRig {
  const rig = {} as EngineRig;
  let cleanup = (): void => undefined;
  beforeEach(() => {
    const fresh = watchingRig(address);
    Object.assign(rig, fresh.rig);
    cleanup = fresh.cleanup;
  });
  afterEach(() => {
    rig.close();
    cleanup();
  });
  return rig;
}

/** A restart in place: closes the rig's store and opens the rig again on its file and clock (a new process). */
export function reopenRig(rig: EngineRig): void {
  rig.close();
  Object.assign(rig, engineRig(rig.dir, rig.clock));
}
