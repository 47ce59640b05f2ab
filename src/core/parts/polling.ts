import type { Clock } from '../../shared/clock';
import type { KeepUp, MonitorEvent, PollStatus, Settings } from '../../shared/contract';
import type { DataSources } from '../handlers/data-source';
import type { CoreLogger } from '../log/logger';
import { Poller } from '../poller/poller';
import type { Store } from '../store';
import type { TransitionEngine } from '../watch/engine';
import { TransitionBatch } from '../watch/transition-batch';
import type { WatcherIndex } from '../watch/watcher-index';
import type { Part } from './part';
import type { Sight } from '../sources/sight';
import type { CycleReport } from '../sources/source-health';

interface PollingPart extends Part {
  readonly poller: Poller;
  /** The poll status as every reader gets it: the poller's, with what the other parts add. */
  status(): PollStatus;
}

interface PollingDeps {
  store: Store;
  engine: TransitionEngine;
  index: WatcherIndex;
  clock: Clock;
  logger: CoreLogger;
  settings: () => Settings;
  sources: DataSources;
  emit: (e: MonitorEvent) => void;
  /** Start the schedule on start() (false: cycles run only when asked, `pollNow`). */
  autoPoll: boolean;
  /** The after-cycle list (parts/after-cycle.ts), run once the cycle's `transitions` event is out. */
  runAfterCycle: () => Promise<void>;
  /** Adds what other parts know to each poll status (own nodes' chain states, the source's health). */
  completeStatus: (status: PollStatus) => PollStatus;
  /** Whether the source and its chains are read now (`stuck` is held for what is not). */
  sight?: Sight;
  /** Each cycle's outcome, before the after-cycle list (the source's health). */
  onCycleEnd?: (r: CycleReport) => void;
  /** Whether the plan keeps up, told with each status (the keep-up warning). */
  onKeepUp?: (k: KeepUp | null) => void;
}

/**
 * The poll schedule. A cycle's transitions leave the core as one `transitions` event, then the
 * after-cycle list runs (that cycle's notifications among it); the heap is compacted while the
 * poller is idle. Stopped, it lets a running cycle finish.
 */
export function pollingPart(d: PollingDeps): PollingPart {
  const batch = new TransitionBatch((address) => d.store.watches.getWatch(address));
  const poller = new Poller({
    store: d.store,
    engine: d.engine,
    index: d.index,
    clock: d.clock,
    logger: d.logger,
    settings: d.settings,
    client: (network) => d.sources.client(network),
    budget: () => d.sources.budget(),
    onTransitions: (ts) => batch.add(ts),
    onStatus: (status) => {
      d.onKeepUp?.(status.keepUp ?? null);
      d.emit({ type: 'poll-status', status: d.completeStatus(status) });
    },
    ...(d.sight ? { sight: d.sight } : {}),
    ...(d.onCycleEnd ? { onCycleEnd: d.onCycleEnd } : {}),
    skippedRecords: () => d.sources.skippedRecords(),
    afterCycle: async () => {
      const batched = batch.take();
      if (batched) d.emit(batched);
      await d.runAfterCycle();
    },
  });
  return {
    name: 'polling',
    poller,
    status: () => d.completeStatus(poller.status()),
    start: () => {
      if (d.autoPoll) poller.start();
    },
    async stop() {
      poller.stop();
      await poller.idle();
    },
  };
}
