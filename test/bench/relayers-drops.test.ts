/**
 * bench:relayers fails on a delivery the core lost: three delivered route messages in the core's cache
 * are turned back to pending just before the figures are read (BENCH_INJECT_DROPS), as if read after
 * their delivery and lost. The judge finds them in the core's database as read but still pending, counts
 * them as drops, not as deliveries not read yet, and fails. A small world: 12 simulated minutes at 3
 * messages/s.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../..');

function runRelayersBench(env: Record<string, string>): Promise<{ code: number | null; result: Record<string, unknown> | null; stderr: string }> {
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
    child.once('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      done({ code, result: line ? (JSON.parse(line) as Record<string, unknown>) : null, stderr: err });
    });
  });
}

describe('bench:relayers judges drops', () => {
  it('fails on three deliveries the core lost, each found read but still pending', { timeout: 180_000 }, async () => {
    const r = await runRelayersBench({
      BENCH_MINUTES: '12',
      BENCH_RATE: '3',
      BENCH_SETTLE_MINUTES: '1',
      BENCH_SILENT_MINUTES: '1',
      BENCH_PENDING_MINUTES: '1',
      BENCH_INJECT_DROPS: '3',
    });
    expect(r.result, r.stderr).not.toBeNull();
    const missing = (r.result!.figures as { missing: { dropped: number; notYetDue: number; byState: Record<string, number> } }).missing;
    expect(r.result!.injectedDrops).toBe(3);
    expect(missing.byState.pending_read).toBe(3);
    expect(missing.dropped).toBe(3);
    expect(r.result!.failed).toEqual(expect.arrayContaining(['droppedDeliveries', 'countMismatches']));
    expect(r.result!.pass).toBe(false);
    expect(r.code).toBe(1);
  });
});
