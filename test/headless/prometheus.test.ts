import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HeadlessWatcher } from '../../src/headless/watcher';
import { startLocalService } from '../../src/local-service';
import { ScaledClock } from '../core/scaled-clock';
import { missing, PROMETHEUS, startPrometheus, type Engine } from './engines';
import { waitFor } from '../support/wait-for';
import { baseConfig, sendWatched, startWatcher, tempDir, type Service } from './rig';

const RULES = join(__dirname, '..', '..', 'deploy', 'rules', 'teleporter-watch.rules.yml');
const skip = missing(PROMETHEUS);

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

async function query(prom: Engine, q: string): Promise<Sample[]> {
  const r = (await (await fetch(`${prom.url}/api/v1/query?query=${encodeURIComponent(q)}`)).json()) as { status: string; data: { result: Sample[] } };
  if (r.status !== 'success') throw new Error(`query ${q} failed`);
  return r.data.result;
}

describe.skipIf(skip)('Prometheus scrapes a headless watcher running against the local service', () => {
  // One simulated minute per real second, shared by the service and the watcher (the stuck threshold is 1 min).
  const now = Date.now();
  const clock = new ScaledClock(now, now, 60);
  let svc: Service;
  let w: HeadlessWatcher;
  let prom: Engine;

  beforeAll(async () => {
    svc = await startLocalService({ rate: 0, seed: 11, clock, rateLimitPerMinute: { keyed: 1_000_000, anonymous: 1_000_000 } });
    w = await startWatcher(tempDir('tw-prom-watch-'), baseConfig(svc.url, { pollIntervalSeconds: 60, stuckThresholdMinutes: 1 }), { clock });
    const target = new URL(w.metrics!.url).host;
    prom = await startPrometheus(
      `global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files: ['${RULES}']\nscrape_configs:\n  - job_name: teleporter-watch\n    static_configs:\n      - targets: ['${target}']\n`,
    );
  }, 60_000);

  afterAll(async () => {
    await prom?.stop();
    await w?.close();
    await svc?.close();
  });

  it('returns the watcher series through its query API, and a stuck message fires the stuck rule', async () => {
    const id = sendWatched(svc, 'undelivered');
    const tracked = await waitFor(
      async () => (await query(prom, 'teleporter_watch_tracked_messages{status="pending"}')).find((s) => Number(s.value[1]) >= 1),
      45_000,
      'the tracked series',
    );
    expect(tracked.metric.route).toMatch(/ → /);
    expect(tracked.metric.job).toBe('teleporter-watch');
    const byWatch = await waitFor(
      async () => (await query(prom, 'teleporter_watch_tracked_messages_by_watch')).find((s) => s.metric.watch === 'treasury'),
      15_000,
      'the per-watch series',
    );
    expect(Number(byWatch.value[1])).toBeGreaterThanOrEqual(1);
    const newOnes = await waitFor(async () => (await query(prom, 'teleporter_watch_transitions_total{kind="new"}'))[0], 15_000, 'the transitions counter');
    expect(Number(newOnes.value[1])).toBeGreaterThanOrEqual(1);
    for (const name of [
      'teleporter_watch_poll_requests_total',
      'teleporter_watch_last_successful_poll_timestamp_seconds',
      'teleporter_watch_ratelimit_remaining',
      'teleporter_watch_process_resident_memory_bytes',
    ]) {
      const s = await waitFor(async () => (await query(prom, name))[0], 15_000, name);
      expect(Number(s.value[1]), name).toBeGreaterThan(0);
    }
    // No series is labelled by message ID.
    const labels = (await (await fetch(`${prom.url}/api/v1/labels`)).json()) as { data: string[] };
    expect(labels.data).not.toContain('messageId');
    expect(JSON.stringify(await query(prom, '{job="teleporter-watch"}'))).not.toContain(id);

    const stuck = await waitFor(async () => (await query(prom, 'teleporter_watch_stuck_messages'))[0], 30_000, 'the stuck gauge');
    expect(Number(stuck.value[1])).toBe(1);
    const alert = await waitFor(
      async () => {
        const r = (await (await fetch(`${prom.url}/api/v1/alerts`)).json()) as { data: { alerts: { labels: Record<string, string>; state: string }[] } };
        return r.data.alerts.find((a) => a.labels.alertname === 'TeleporterMessageStuck' && a.state === 'firing');
      },
      30_000,
      'the stuck alert to fire',
    );
    expect(alert.labels.route).toBe(stuck.metric.route);
  }, 120_000);
});
