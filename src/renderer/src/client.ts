import type { MonitorApi } from '../../shared/contract';
import { systemClock, type Clock } from '../../shared/clock';

/**
 * The one handle the stores use to reach the core. main.ts installs the real client (Electron bridge
 * or web transport); tests install one built on an in-memory transport and a ManualClock.
 */
interface Installed {
  api: MonitorApi;
  clock: Clock;
}

let installed: Installed | null = null;

export function installMonitor(api: MonitorApi, clock: Clock = systemClock): void {
  installed = { api, clock };
}

export function monitor(): MonitorApi {
  if (!installed) throw new Error('installMonitor() was not called before the stores were used.');
  return installed.api;
}

export function clock(): Clock {
  return installed?.clock ?? systemClock;
}
