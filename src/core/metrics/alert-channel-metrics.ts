import { Gauge, type Registry } from 'prom-client';
import type { AlertChannelState } from '../../shared/alert-schemas';

/**
 * Each alert channel's backoff at scrape time: its failed attempts in a row (0 while it delivers) and
 * when it is tried next (0 while it delivers). The `channel` label is the type and name (or the URL's
 * origin), as in alert_deliveries_total; at most 20 channels.
 */
export function registerAlertChannelMetrics(registry: Registry, prefix: string, states: () => AlertChannelState[]): void {
  const gauge = (name: string, help: string, value: (s: AlertChannelState) => number) =>
    new Gauge({
      name: `${prefix}${name}`,
      help,
      labelNames: ['channel'],
      registers: [registry],
      collect() {
        this.reset();
        for (const s of states()) this.set({ channel: s.name }, value(s));
      },
    });
  gauge('alert_channel_failures', 'Failed delivery attempts in a row, by alert channel; 0 while it delivers.', (s) => s.failures);
  gauge(
    'alert_channel_next_attempt_timestamp_seconds',
    'When a failing alert channel is tried next (Unix seconds, after an exponential backoff with jitter); 0 while it delivers.',
    (s) => (s.nextAttemptAt ?? 0) / 1000,
  );
}
