import { ownChainsOf } from '../../shared/chains';
import { CoreMetrics } from '../metrics/core-metrics';
import type { MonitorCoreOptions } from '../monitor-core';
import type { PollStatus } from '../../shared/contract';
import type { AlertChannelState } from '../../shared/alert-schemas';
import type { Store } from '../store';
import { MetricsQueries } from '../store/metrics-queries';
import type { EventHub } from './events';
import type { Part } from './part';

/** What the gauges read when scraped that parts listed after this one know (given by the `metrics-readings` part). */
interface MetricsReaders {
  pollStatus: () => PollStatus;
  rateLimitRemaining: () => { host: string; remaining: number } | null;
  alertsPending: () => number;
  alertChannels: () => AlertChannelState[];
}

export interface MetricsPart extends Part {
  /** Present when the options asked for metrics. */
  readonly registry: CoreMetrics | undefined;
  /** Gives the gauges what they read on scrape (once, while the core is composed, before anything can scrape). */
  readFrom(readers: MetricsReaders): void;
}

/**
 * The Prometheus registry (only when `options.metrics` is given): it counts the events it taps and the
 * requests and deliveries the parts after it report, and reads the rest when scraped, through the
 * readers the `metrics-readings` part gives it. Nothing to start or stop.
 */
export function metricsPart(o: MonitorCoreOptions['metrics'], d: { store: Store; events: EventHub }): MetricsPart {
  let readers: MetricsReaders | null = null;
  const read = (): MetricsReaders => {
    if (!readers) throw new Error('The metrics were read before the core was composed.');
    return readers;
  };
  const registry = o
    ? new CoreMetrics(
        {
          queries: new MetricsQueries(d.store.db, () => d.store.source()),
          pollStatus: () => read().pollStatus(),
          rateLimitRemaining: () => read().rateLimitRemaining(),
          alertsPending: () => read().alertsPending(),
          alertChannels: () => read().alertChannels(),
          ownChains: () => ownChainsOf(d.store.settings.get().dataSource),
        },
        { processMetrics: o.processMetrics ?? false },
      )
    : undefined;
  if (registry) d.events.tap((e) => registry.observeEvent(e));
  return {
    name: 'metrics',
    registry,
    readFrom(r) {
      readers = r;
    },
  };
}
