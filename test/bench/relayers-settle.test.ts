/**
 * bench:relayers judges what is true: once the traffic stops (the settle minutes), every relayer is
 * silent in fact, so the silence alerts the core then shows (a threshold after each relayer's last
 * delivery) are counted apart, not as alerts for healthy relayers or second episodes. A small world:
 * 12 simulated minutes at 3 messages/s, a 2-minute silence threshold, 3 settle minutes.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../..');

function runRelayersBench(env: Record<string, string>): Promise<{ result: Record<string, unknown> | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/relayers.bench.ts'], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', fail);
    child.once('exit', () => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      done({ result: line ? (JSON.parse(line) as Record<string, unknown>) : null, stderr: err });
    });
  });
}

describe('bench:relayers after the traffic stops', () => {
  it('counts the silence of every relayer in the settle minutes apart, not as healthy relayers alerted', { timeout: 180_000 }, async () => {
    const r = await runRelayersBench({
      BENCH_MINUTES: '12',
      BENCH_RATE: '3',
      BENCH_SETTLE_MINUTES: '3',
      BENCH_SILENT_MINUTES: '2',
      BENCH_PENDING_MINUTES: '1',
    });
    expect(r.result, r.stderr).not.toBeNull();
    const alerts = r.result!.alerts as {
      healthyAlerts: number;
      duplicates: number;
      silentAfterTrafficStopped: { count: number };
      shown: { title: string; at: number }[];
    };
    const silences = alerts.shown.filter((s) => s.title.startsWith('Relayer silent:'));
    // The core did alert them (the eight relayers went quiet with the world)…
    expect(silences.length).toBeGreaterThanOrEqual(8);
    // …and the bench judged those as true.
    expect(alerts.silentAfterTrafficStopped.count).toBe(silences.length);
    expect(alerts.healthyAlerts).toBe(0);
    expect(alerts.duplicates).toBe(0);
  });
});
