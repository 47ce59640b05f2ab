/**
 * The core as the benchmarks run it: the web shell's, on the bench's clock, polling only when the bench
 * says (each tick), with a keychain entry of its own. `o` names the rest: its data source, key, version.
 */
import { createMonitorCore } from '../src/core';
import type { MonitorCoreOptions } from '../src/core/monitor-core';
import type { Clock } from '../src/shared/clock';

export function createBenchCore(dataDir: string, clock: Clock, o: Partial<MonitorCoreOptions> = {}) {
  return createMonitorCore({ dataDir, shell: 'web', version: 'bench', clock, autoPoll: false, keychainService: 'tw-bench', ...o });
}

/** The service at `url` as the core's local data source, and the key it sends when there is one. */
export const serviceSource = (url: string, apiKey?: string | null): Partial<MonitorCoreOptions> => ({
  localService: { kind: 'url', url },
  ...(apiKey ? { apiKey } : {}),
});

/** What every bench child's `init` carries: the service's URL, the core's data folder and the parent's time. */
export interface ChildInit {
  type: 'init';
  url: string;
  dataDir: string;
  now: number;
}
