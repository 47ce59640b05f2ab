import type { Clock } from '../../shared/clock';
import type { Settings } from '../../shared/contract';
import { DataSources } from '../handlers/data-source';
import type { Logger } from '../log/logger';
import type { CoreMetrics } from '../metrics/core-metrics';
import type { Store } from '../store';
import type { Part } from './part';

interface DataSourcesPart extends Part {
  readonly sources: DataSources;
}

/**
 * The Data API clients of the chosen data source, their keep-alive pools and budgets (`handlers/data-source.ts`);
 * stopped, it closes the pools.
 */
export function dataSourcesPart(d: {
  clock: Clock;
  logger: Logger;
  settings: () => Settings;
  apiKey: () => string | null;
  localUrl: () => string | null;
  ownNodesUrl: () => string | null;
  metrics: CoreMetrics | undefined;
  store: Store;
  /** Where settings are changed, as error advice names it (default: Settings). */
  settingsPlace?: string;
}): DataSourcesPart {
  const metrics = d.metrics;
  const sources = new DataSources(
    d.clock,
    d.logger,
    d.settings,
    d.apiKey,
    d.localUrl,
    metrics ? (o) => metrics.observeRequest(o) : undefined,
    d.ownNodesUrl,
    d.store.pollState,
    metrics ? (reason, source, n) => metrics.observeSkipped(reason, source, n) : undefined,
    d.settingsPlace,
  );
  return { name: 'data-sources', sources, stop: () => sources.close() };
}
