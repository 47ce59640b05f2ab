/**
 * The headless watcher's `plan:` from a real YAML file reaches the budget, and /metrics exports the
 * day's quota: today's spend in CU and requests (the same count the service made), the plan's limits,
 * the pace's projection, and the server's CU remaining. Real service, real HTTP scrape.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalService } from '../../src/local-service';
import { JumpClock } from '../core/http-helpers';
import { baseConfig, pollNow, startWatcher, tempDir } from './rig';

const PLAN = { cuPerMinute: 3000, cuPerDay: 500_000 };

const sample = (text: string, name: string): number => {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{plan="custom"} `) || l.startsWith(`${name} `));
  return line === undefined ? NaN : Number(line.slice(line.lastIndexOf(' ') + 1));
};

describe('the quota on /metrics', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it("exports today's spend, the plan's limits and the projection; the spend is the service's count", async () => {
    const clock = new JumpClock(Date.UTC(2026, 6, 1, 9));
    const served: number[] = [];
    const svc = await startLocalService({
      clock,
      rate: 1,
      warmStore: false,
      addressCount: 10,
      computeUnits: { keyed: 'free', anonymous: { cuPerMinute: PLAN.cuPerMinute, cuPerDay: PLAN.cuPerDay } },
      logRequests: true,
      log: (line) => served.push(Number(line.split(' ')[2])),
    });
    cleanups.push(() => svc.close());
    const w = await startWatcher(tempDir('tw-quota-metrics-'), baseConfig(svc.url, { plan: PLAN, pollIntervalSeconds: 30 }), { clock });
    cleanups.push(() => w.close());
    for (let i = 0; i < 6; i++) {
      await clock.advance(30_000);
      await pollNow(w);
    }
    const text = await (await fetch(w.metrics!.url)).text();
    const requests = served.filter((s) => s !== 429).length;
    expect(requests).toBeGreaterThan(0);
    expect(served).not.toContain(429);
    expect(sample(text, 'teleporter_watch_quota_day_cu')).toBe(PLAN.cuPerDay);
    expect(sample(text, 'teleporter_watch_quota_minute_cu')).toBe(PLAN.cuPerMinute);
    expect(sample(text, 'teleporter_watch_quota_requests_today')).toBe(requests);
    expect(sample(text, 'teleporter_watch_quota_spent_cu')).toBe(20 * requests);
    expect(sample(text, 'teleporter_watch_quota_projected_cu')).toBeGreaterThanOrEqual(20 * requests);
    expect(sample(text, 'teleporter_watch_quota_runs_out_timestamp_seconds')).toBe(0);
    expect(sample(text, 'teleporter_watch_quota_warning')).toBe(0);
    expect(sample(text, 'teleporter_watch_poll_behind_seconds')).toBe(0);
    // The service's ratelimit-remaining, in CU: what is left of the minute's 3,000.
    const remaining = Number(/^teleporter_watch_ratelimit_remaining\{host="[^"]+"\} (\d+)$/m.exec(text)?.[1]);
    expect(remaining % 20).toBe(0);
    expect(remaining).toBeLessThan(PLAN.cuPerMinute);
  });
});
