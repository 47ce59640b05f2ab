import { ownChainsOf } from '../../shared/chains';
import { CoreMetrics } from '../metrics/core-metrics';
import type { MonitorCoreOptions } from '../monitor-core';
import type { Store } from '../store';
import { MetricsQueries } from '../store/metrics-queries';
import type { EventHub } from './events';
import type { Part } from './part';

export interface MetricsPart extends Part {
  /** Present when the options asked for metrics. */
  readonly registry: CoreMetrics | undefined;
}

/**
 * The Prometheus registry (only when `options.metrics` is given): it counts the events it taps and the
 * requests and deliveries the parts after it report, and reads the store when scraped. The gauges that
 * read later parts are added by the `metrics-readings` part, made after them. Nothing to start or stop.
 */
export function metricsPart(o: MonitorCoreOptions['metrics'], d: { store: Store; events: EventHub }): MetricsPart {
  const registry = o
    ? new CoreMetrics(
        {
          queries: new MetricsQueries(d.store.db, () => d.store.source()),
          ownChains: () => ownChainsOf(d.store.settings.get().dataSource),
        },
        { processMetrics: o.processMetrics ?? false },
      )
    : undefined;
  if (registry) d.events.tap((e) => registry.observeEvent(e));
  return { name: 'metrics', registry };
}
