import { Gauge, type Registry } from 'prom-client';
import type { PollStatus } from '../../shared/contract';

/**
 * The day's quota at scrape time, from the poll status: today's spend (CU and requests), the plan's
 * limits, the day's spend the current pace leads to, when the quota would run out, how far behind
 * the reads are. The day resets at 00:00 UTC.
 */
export function registerQuotaMetrics(registry: Registry, prefix: string, pollStatus: () => PollStatus): void {
  const registers = [registry];
  const gauge = (name: string, help: string, value: (s: PollStatus) => number | null, labelNames: string[] = ['plan']) =>
    new Gauge({
      name: `${prefix}${name}`,
      help,
      labelNames,
      registers,
      collect() {
        this.reset();
        const s = pollStatus();
        const v = value(s);
        if (v === null) return;
        if (labelNames.length === 0) this.set(v);
        else if (s.quota) this.set({ plan: s.quota.plan }, v);
      },
    });
  gauge('quota_spent_cu', 'Compute units spent today (UTC) on the Data API, by plan; kept across restarts.', (s) => s.quota?.spentCuToday ?? null);
  gauge('quota_requests_today', 'Data API requests sent today (UTC), by plan.', (s) => s.quota?.requestsToday ?? null);
  gauge('quota_day_cu', "The plan's compute units a day (the day resets at 00:00 UTC).", (s) => s.quota?.cuPerDay ?? null);
  gauge('quota_minute_cu', "The plan's compute units a minute.", (s) => s.quota?.cuPerMinute ?? null);
  gauge('quota_pace_cu_per_minute', 'Compute units a minute over the last few minutes.', (s) => s.quota?.paceCuPerMinute ?? null);
  gauge('quota_projected_cu', "Today's spend at 00:00 UTC if the current pace holds.", (s) => s.quota?.projectedCuToday ?? null);
  gauge('quota_runs_out_timestamp_seconds', "Unix time the day's quota would run out at the current pace (0: it lasts the day).", (s) =>
    s.quota ? (s.quota.runsOutAt ?? 0) / 1000 : null,
  );
  gauge('quota_warning', "1 when the current pace would spend 80 % of the day's quota or more, 2 when today's share is spent, else 0.", (s) =>
    s.quota ? { ok: 0, warning: 1, exhausted: 2 }[s.quota.level] : null,
  );
  gauge('poll_behind_seconds', 'How far behind the reads are when the budget cut the last cycle short (0: not behind).', (s) => (s.behindMs ?? 0) / 1000, []);
}
