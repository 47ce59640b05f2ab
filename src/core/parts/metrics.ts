import type { DataSources } from '../handlers/data-source';
import { CoreMetrics } from '../metrics/core-metrics';
import type { MonitorCoreOptions } from '../monitor-core';
import type { PollStatus } from '../../shared/contract';
import type { Store } from '../store';
import { MetricsQueries } from '../store/metrics-queries';
import type { EventHub } from './events';
import type { Part } from './part';

export interface MetricsPart extends Part {
  /** Present when the options asked for metrics. */
  readonly registry: CoreMetrics | undefined;
}

/**
 * The Prometheus registry (only when `options.metrics` is given): it counts the events it taps and
 * reads the rest when scraped, through the getters (so it may be created before the parts it reads).
 * Nothing to start or stop.
 */
export function metricsPart(
  o: MonitorCoreOptions['metrics'],
  d: { store: Store; events: EventHub; pollStatus: () => PollStatus; sources: () => DataSources; alertsPending: () => number },
): MetricsPart {
  const registry = o
    ? new CoreMetrics(
        {
          queries: new MetricsQueries(d.store.db),
          pollStatus: d.pollStatus,
          rateLimitRemaining: () => {
            const remaining = d.sources().budget().serverRemainingNow();
            const base = d.sources().baseUrl();
            return remaining === null || !base ? null : { host: new URL(base).host, remaining };
          },
          alertsPending: d.alertsPending,
        },
        { processMetrics: o.processMetrics ?? false },
      )
    : undefined;
  if (registry) d.events.tap((e) => registry.observeEvent(e));
  return { name: 'metrics', registry };
}
