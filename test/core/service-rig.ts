import type { Clock, ManualClock } from '../../src/shared/clock';
import { chainByBlockchainId } from '../../src/shared/chains';
import type { MonitorEvent, Transition } from '../../src/shared/contract';
import { createMonitorCore } from '../../src/core';
import type { MonitorCore } from '../../src/core/monitor-core';
import { startTeleporterService, type ServiceOptions } from '../../src/local-data-api';
import { JumpClock } from './http-helpers';

type Running = Awaited<ReturnType<typeof startTeleporterService>>;

export interface GroundTruth {
  /** Message record changes as the service's store received them, with the clock time. */
  history: Map<string, { at: number; status: string; rd: boolean; from: string; to: string; network: string }[]>;
}

/** Wraps the service store's writes to keep every record change with its time (the ground truth). */
export function recordHistory(svc: Running, clock: Clock): GroundTruth {
  const history: GroundTruth['history'] = new Map();
  const original = svc.store.upsertMany.bind(svc.store);
  svc.store.upsertMany = (records: readonly unknown[]) => {
    const entry = (r: Record<string, unknown>, at: number) => ({
      at,
      status: r.status as string,
      rd: r.receiptDelivered === true,
      from: r.from as string,
      to: r.to as string,
      network: chainByBlockchainId(r.sourceBlockchainId as string)?.network ?? 'mainnet',
    });
    for (const r of records as Record<string, unknown>[]) {
      const id = r.messageId as string;
      let list = history.get(id);
      if (!list) {
        // Written before we started listening (preload): its stored state is the starting point.
        const before = svc.store.get(id);
        list = before ? [entry(before, 0)] : [];
        history.set(id, list);
      }
      list.push(entry(r, clock.now()));
    }
    original(records);
  };
  return { history };
}

/**
 * The transitions that must fire for the watched addresses, from the record history: messages first
 * written at or after `baselineAt` fire `new`; any that left pending after the baseline fire left_pending;
 * any whose receipt arrived after it fire receipt_delivered.
 */
export function expectedTransitions(
  truth: GroundTruth,
  watched: Set<string> | ((id: string) => boolean),
  baselineAt: number,
  network: 'mainnet' | 'fuji',
): Map<string, number> {
  const out = new Map<string, number>();
  for (const [id, list] of truth.history) {
    const first = list[0]!;
    const mine = typeof watched === 'function' ? watched(id) : watched.has(first.from.toLowerCase()) || watched.has(first.to.toLowerCase());
    if (first.network !== network || !mine) continue;
    const before = [...list].reverse().find((h) => h.at < baselineAt);
    const last = list[list.length - 1]!;
    if (!before) {
      out.set(`${id}:new`, first.at);
      const left = list.find((h) => h.status !== 'pending');
      if (left) out.set(`${id}:left_pending`, left.at);
      const rd = list.find((h) => h.rd);
      if (rd) out.set(`${id}:receipt_delivered`, rd.at);
    } else {
      if (before.status === 'pending' && last.status !== 'pending')
        out.set(`${id}:left_pending`, list.find((h) => h.at >= baselineAt && h.status !== 'pending')!.at);
      if (!before.rd && last.rd) out.set(`${id}:receipt_delivered`, list.find((h) => h.at >= baselineAt && h.rd)!.at);
    }
  }
  return out;
}

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
  svcOpts: ServiceOptions,
  opts: { keychainService: string; budget?: number; interval?: number },
): Promise<CoreRig> {
  const clock = new JumpClock(Date.UTC(2026, 0, 1, 12));
  const svc = await startTeleporterService({ clock, ...svcOpts });
  const truth = recordHistory(svc, clock);
  const core = await createMonitorCore({
    dataDir,
    shell: 'web',
    version: 'test',
    clock,
    localDataApi: { kind: 'url', url: svc.url },
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
  const r = await core.invoke('updateSettings', { pollIntervalSeconds: opts.interval ?? 10, requestBudgetPerMinute: opts.budget ?? 2000 });
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
