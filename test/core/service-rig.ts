import type { ManualClock } from '../../src/shared/clock';
import type { MonitorEvent, Transition } from '../../src/shared/contract';
import { createMonitorCore } from '../../src/core';
import type { MonitorCore } from '../../src/core/monitor-core';
import { startLocalService, type SimulatedService, type SimulatedServiceOptions } from '../../src/local-service';
import { JumpClock } from './http-helpers';
import { GroundTruth } from '../support/ground-truth';
import { requestRatePlan } from '../../src/shared/plans';

type Running = SimulatedService;

export interface CoreRig {
  clock: ManualClock;
  svc: Running;
  core: MonitorCore;
  events: MonitorEvent[];
  transitions: Transition[];
  truth: GroundTruth;
  /** Runs one poll cycle (its waits move the clock: see JumpClock). */
  poll(): Promise<void>;
  close(): Promise<void>;
}

export async function coreRig(
  dataDir: string,
  svcOpts: SimulatedServiceOptions,
  opts: { keychainService: string; budget?: number; interval?: number },
): Promise<CoreRig> {
  const clock = new JumpClock(Date.UTC(2026, 0, 1, 12));
  const svc = await startLocalService({ clock, ...svcOpts });
  const truth = GroundTruth.listen(svc);
  const core = await createMonitorCore({
    dataDir,
    shell: 'web',
    version: 'test',
    clock,
    localService: { kind: 'url', url: svc.url },
    autoPoll: false,
    keychainService: opts.keychainService,
  });
  const events: MonitorEvent[] = [];
  const transitions: Transition[] = [];
  core.onEvent((e) => {
    events.push(e);
    if (e.type === 'transitions') transitions.push(...e.transitions);
  });
  await core.start();
  const r = await core.invoke('updateSettings', { pollIntervalSeconds: opts.interval ?? 10, plan: requestRatePlan(opts.budget ?? 2000) });
  if (!r.ok) throw new Error(r.error.message);
  return {
    clock,
    svc,
    core,
    events,
    transitions,
    truth,
    poll: async () => {
      await core.handlers.pollNow(undefined);
    },
    close: async () => {
      await core.close();
      await svc.close();
    },
  };
}
