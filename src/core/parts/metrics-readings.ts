import type { PollStatus } from '../../shared/contract';
import type { AlertChannelState } from '../../shared/alert-schemas';
import type { DataSources } from '../handlers/data-source';
import type { MetricsPart } from './metrics';
import type { Part } from './part';

/**
 * Gives the metrics registry (listed early, so the parts after it can count into it) what its gauges
 * read on scrape from parts listed after it: the poll status, the server's rate-limit remaining, the
 * alerts waiting for delivery and each alert channel's backoff. Nothing to start or stop.
 */
export function metricsReadingsPart(
  metrics: MetricsPart,
  d: { pollStatus: () => PollStatus; sources: DataSources; alertsPending: () => number; alertChannels: () => AlertChannelState[] },
): Part {
  metrics.readFrom({
    pollStatus: d.pollStatus,
    rateLimitRemaining: () => {
      const remaining = d.sources.budget().serverRemainingNow();
      const base = d.sources.baseUrl();
      return remaining === null || !base ? null : { host: new URL(base).host, remaining };
    },
    alertsPending: d.alertsPending,
    alertChannels: d.alertChannels,
  });
  return { name: 'metrics-readings' };
}
