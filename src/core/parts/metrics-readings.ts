import type { PollStatus } from '../../shared/contract';
import type { AlertChannelState } from '../../shared/alert-schemas';
import type { DataSources } from '../handlers/data-source';
import type { CoreMetrics } from '../metrics/core-metrics';
import { registerLiveGauges } from '../metrics/live-gauges';
import type { Part } from './part';

/**
 * The gauges of the metrics registry (listed early, so the parts after it can count into it) that read
 * parts listed after it on scrape: the poll status, the server's rate-limit remaining, the alerts
 * waiting for delivery and each alert channel's backoff (metrics/live-gauges.ts). Made once those
 * parts are, so nothing can read them before they exist. Nothing to start or stop.
 */
export function metricsReadingsPart(
  metrics: CoreMetrics | undefined,
  d: { pollStatus: () => PollStatus; sources: DataSources; alertsPending: () => number; alertChannels: () => AlertChannelState[] },
): Part {
  if (metrics)
    registerLiveGauges(metrics.registry, {
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
