import type { PollStatus, Settings } from '../../shared/contract';
import type { OwnNodeStatus } from '../../shared/own-nodes';
import type { Logger } from '../log/logger';
import type { LocalServiceSpec } from '../monitor-core';
import { OwnNodesService } from '../own-nodes/own-nodes-service';
import { OwnNodeSkipNews } from '../own-nodes/skip-news';
import { OwnNodeStateChanges } from '../own-nodes/state-changes';
import type { EventHub } from './events';
import type { Part } from './part';
import { settingsFollower } from './settings-follower';

interface OwnNodesPart extends Part {
  /** Where the local service answers, or null while it is not up. */
  url(): string | null;
  /** A poll status with each chain's state added while own nodes are the data source. */
  withChains(status: PollStatus): PollStatus;
  /** After each cycle: re-reads the chains' states from the service (a change of state is logged). */
  afterCycle(): Promise<void>;
  /** Called each time the service starts listening (a poll then need not wait for the next interval). */
  onReady(listener: () => void): void;
  /** Each chain's state as last read while own nodes are the data source (null otherwise). */
  chainStatuses(): OwnNodeStatus[] | null;
}

/**
 * "Your own nodes": a service of its own (the local service in chain-index mode), started with the
 * saved chains while they are the data source, restarted when they change, stopped otherwise.
 */
export function ownNodesPart(spec: LocalServiceSpec | undefined, dataDir: string, logger: Logger, settings: () => Settings, events: EventHub): OwnNodesPart {
  const ready = new Set<() => void>();
  const service = spec?.kind === 'spawn' ? new OwnNodesService(spec, dataDir, logger, () => ready.forEach((f) => f())) : null;
  const active = () => settings().dataSource.kind === 'ownNodes';
  const follower = settingsFollower(events, async (running) => {
    const ds = settings().dataSource;
    try {
      if (running && ds.kind === 'ownNodes') await service?.ensure(ds.ownNodes);
      else await service?.stop();
    } catch (e) {
      logger.error('the local service did not start', { error: e });
    }
  });
  const changes = new OwnNodeStateChanges();
  const skips = new OwnNodeSkipNews();
  return {
    name: 'own-nodes',
    url: () => service?.url() ?? null,
    onReady: (listener) => void ready.add(listener),
    chainStatuses: () => (active() ? (service?.statuses() ?? null) : null),
    withChains(status) {
      const own = active() ? service?.statuses() : null;
      return own ? { ...status, ownNodes: own } : status;
    },
    async afterCycle() {
      if (!active() || !service) return;
      await service.refresh();
      for (const c of changes.changes(service.statuses() ?? [])) logger[c.level](c.line);
      for (const line of skips.lines(service.statuses() ?? [])) logger.warn(line);
    },
    start: () => follower.start(),
    stop: () => follower.stop(),
  };
}
