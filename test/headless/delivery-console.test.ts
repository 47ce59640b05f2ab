/**
 * Alert delivery failures reach the console (stderr), not only the log file: the command run against a
 * webhook that answers 500 prints the failure once (no URL path or query, where webhook secrets live),
 * keeps quiet while the retries fail, and says so when the receiver takes alerts again. Which changes
 * are printed is checked on DeliveryConsole with a clock the test moves.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertDeliveryResult } from '../../src/core/monitor-core';
import { DeliveryConsole } from '../../src/headless/delivery-console';
import { startLocalService } from '../../src/local-service';
import { waitFor } from '../support/wait-for';
import { baseConfig, sendWatched, startReceiver, tempDir, WATCHED, writeConfig, type Receiver, type Service } from './rig';

const BIN = join(__dirname, '..', '..', 'bin', 'teleporter-watch.cjs');

describe('DeliveryConsole', () => {
  it('prints when a channel starts failing (since when, why, the next try), when the reason changes, and when it delivers again: never per attempt', () => {
    const t0 = new Date(2026, 0, 5, 14, 2, 30).getTime(); // 14:02 on the operator's clock
    let now = t0;
    const lines: string[] = [];
    const c = new DeliveryConsole(
      (l) => lines.push(l),
      () => now,
    );
    const report = (o: Partial<AlertDeliveryResult>): AlertDeliveryResult => ({
      channel: 'webhook team-hook',
      outcome: 'failed',
      count: 1,
      error: 'http://127.0.0.1:9 answered HTTP 500: receiver broken.',
      reason: 'HTTP 500',
      failures: 1,
      failingSince: t0,
      nextAttemptAt: now + 3_000,
      pending: 2,
      ...o,
    });
    c.observe(report({ outcome: 'sent', failures: 0, failingSince: null, nextAttemptAt: null, pending: 0 }));
    expect(lines).toEqual([]);
    c.observe(report({}));
    // Ten more failed tries for the same reason over an hour: nothing more on the console.
    for (let i = 2; i <= 11; i++) {
      now += 6 * 60_000;
      c.observe(report({ failures: i, nextAttemptAt: now + 130_000 }));
    }
    expect(lines).toEqual([
      'alerts to webhook team-hook failing since 14:02 (HTTP 500); next try in 3 s; 2 alerts kept, none lost: http://127.0.0.1:9 answered HTTP 500: receiver broken.',
    ]);
    c.observe(
      report({ reason: 'ECONNREFUSED', error: 'Cannot reach http://127.0.0.1:9 (ECONNREFUSED).', failures: 12, nextAttemptAt: now + 130_000, pending: 3 }),
    );
    expect(lines[1]).toBe(
      'alerts to webhook team-hook still failing since 14:02, now ECONNREFUSED (12 attempts); next try in 2 min 10 s; 3 alerts kept: Cannot reach http://127.0.0.1:9 (ECONNREFUSED).',
    );
    // Another channel is its own.
    c.observe(report({ channel: 'alertmanager am', pending: 1 }));
    expect(lines[2]).toMatch(/^alerts to alertmanager am failing since 14:02 \(HTTP 500\)/);
    c.observe(report({ outcome: 'sent', failures: 0, failingSince: null, nextAttemptAt: null, pending: 2 }));
    c.observe(report({ outcome: 'sent', failures: 0, failingSince: null, nextAttemptAt: null, pending: 1 }));
    expect(lines[3]).toBe('alerts to webhook team-hook are delivered again (2 alerts still to send).');
    expect(lines).toHaveLength(4);
    // Failing again later is a new episode: said at once.
    c.observe(report({ failingSince: now }));
    expect(lines).toHaveLength(5);
  });
});

let svc: Service;
let receiver: Receiver;
beforeAll(async () => {
  svc = await startLocalService({ rate: 0, seed: 8 });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await svc.close();
});

describe('teleporter-watch command', () => {
  it('prints a webhook failure on stderr once, redacted, and its recovery; a label cannot forge a console line', async () => {
    receiver.mode = 'fail';
    const dir = tempDir('tw-console-');
    const config = baseConfig(svc.url, {
      pollIntervalSeconds: 5,
      // A label with CR LF and a bidi override, as anyone with the page could type it.
      watches: [{ address: WATCHED, label: 'treasury\u202E\r\nteleporter-watch: forged line' }],
      alerts: { channels: [{ type: 'webhook', name: 'team-hook', url: `${receiver.url}/services/T000/secret-path-token?key=secret-query-token` }] },
    });
    const child = spawn(process.execPath, [BIN, '--config', writeConfig(dir, config)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await waitFor(() => /ready\./.test(stdout) || child.exitCode !== null || undefined, 30_000, 'ready');
      const url = /metrics at (\S+)/.exec(stdout)?.[1] as string;
      sendWatched(svc);
      await waitFor(() => /alerts to webhook team-hook failing/.test(stderr) || undefined, 30_000, 'the failure on stderr');
      expect(stderr).toMatch(
        new RegExp(
          `teleporter-watch: alerts to webhook team-hook failing since \\d\\d:\\d\\d \\(HTTP 500\\); next try in \\d s; 1 alert kept, none lost: ${receiver.url} answered HTTP 500: receiver broken\\.\n`,
        ),
      );
      // The label's line is one line, its hidden characters shown.
      expect(stdout).toContain('teleporter-watch: live: treasury<U+202E><U+000D><U+000A>teleporter-watch: forged line (0x');
      expect(stdout.split('\n').filter((l) => l.startsWith('teleporter-watch: forged'))).toEqual([]);
      expect(stdout).not.toMatch(/[\r\u202E]/);
      // Retries keep failing (counted in /metrics), backing off, without another line while the reason stays the same.
      await waitFor(
        async () => /alert_deliveries_total\{channel="webhook team-hook",outcome="failed"\} ([3-9]|\d\d)/.test(await (await fetch(url)).text()) || undefined,
        30_000,
        'three failed attempts',
      );
      expect(stderr.match(/team-hook/g)).toHaveLength(1);
      receiver.mode = 'ok';
      await waitFor(() => /alerts to webhook team-hook are delivered again/.test(stderr) || undefined, 30_000, 'the recovery line');
      expect(receiver.bodies.length).toBeGreaterThan(0);
      expect(stdout + stderr).not.toMatch(/secret-path-token|secret-query-token/);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 90_000);
});
