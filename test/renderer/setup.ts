import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { createMonitorClient, type MonitorApi } from '../../src/shared/contract';
import { ManualClock } from '../../src/shared/clock';
import { MonitorError } from '../../src/shared/errors';
import { installMonitor } from '../../src/renderer/src/client';
import { FakeMonitor, type FakeOptions } from './fake-monitor';

/** A fresh Pinia, a fake core and a manual clock, wired the way main.ts wires the real ones. */
export function setupRenderer(opts: FakeOptions = {}): { fake: FakeMonitor; api: MonitorApi; clock: ManualClock; pinia: Pinia } {
  const clock = new ManualClock();
  const fake = new FakeMonitor({ now: () => clock.now(), ...opts });
  const api = createMonitorClient(fake, (e) => new MonitorError(e));
  installMonitor(api, clock);
  const pinia = createPinia();
  setActivePinia(pinia);
  return { fake, api, clock, pinia };
}

/** Lets pending promise chains settle. */
export const flush = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
};
