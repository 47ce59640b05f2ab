/**
 * Alert delivery failures reach the console (stderr), not only the log file: the command run against a
 * webhook that answers 500 prints the failure once (no URL path or query, where webhook secrets live),
 * keeps quiet while the retries fail, and says so when the receiver takes alerts again. The rate limit
 * itself is checked on DeliveryConsole with a clock the test moves.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryConsole, STILL_FAILING_EVERY_MS } from '../../src/headless/delivery-console';
import { startTeleporterService } from '../../src/local-data-api';
import { waitFor } from '../support/wait-for';
import { baseConfig, sendWatched, startReceiver, tempDir, writeConfig, type Receiver, type Service } from './rig';

const BIN = join(__dirname, '..', '..', 'bin', 'teleporter-watch.cjs');

describe('DeliveryConsole', () => {
  it('prints the first failure of a channel, then at most one line per interval, and the recovery once', () => {
    let now = 0;
    const lines: string[] = [];
    const c = new DeliveryConsole(
      (l) => lines.push(l),
      () => now,
    );
    const fail = (channel: string, error = 'http://127.0.0.1:9 answered HTTP 500.') => c.observe({ channel, outcome: 'failed', count: 2, error });
    c.observe({ channel: 'hook', outcome: 'sent', count: 1 });
    expect(lines).toEqual([]);
    fail('hook');
    fail('hook');
    now += STILL_FAILING_EVERY_MS - 1;
    fail('hook');
    fail('other');
    expect(lines).toEqual([
      'alerts to hook not delivered: http://127.0.0.1:9 answered HTTP 500. They are kept and retried.',
      'alerts to other not delivered: http://127.0.0.1:9 answered HTTP 500. They are kept and retried.',
    ]);
    now += 1;
    fail('hook', 'Cannot reach http://127.0.0.1:9 (ECONNREFUSED).');
    expect(lines[2]).toBe('alerts to hook still not delivered (3 more failed attempts): Cannot reach http://127.0.0.1:9 (ECONNREFUSED).');
    c.observe({ channel: 'hook', outcome: 'sent', count: 3 });
    c.observe({ channel: 'hook', outcome: 'sent', count: 1 });
    expect(lines[3]).toBe('alerts to hook are delivered again (3 just sent).');
    expect(lines).toHaveLength(4);
    // Failing again later is a new episode: said at once.
    fail('hook');
    expect(lines).toHaveLength(5);
  });
});

let svc: Service;
let receiver: Receiver;
beforeAll(async () => {
  svc = await startTeleporterService({ rate: 0, seed: 8 });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await svc.close();
});

describe('teleporter-watch command', () => {
  it('prints a webhook failure on stderr once, redacted, and its recovery', async () => {
    receiver.mode = 'fail';
    const dir = tempDir('tw-console-');
    const config = baseConfig(svc.url, {
      pollIntervalSeconds: 5,
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
      await waitFor(() => /alerts to webhook team-hook not delivered/.test(stderr) || undefined, 30_000, 'the failure on stderr');
      expect(stderr).toContain(
        `teleporter-watch: alerts to webhook team-hook not delivered: ${receiver.url} answered HTTP 500: receiver broken. They are kept and retried.`,
      );
      // Retries keep failing (counted in /metrics) without another line within the minute.
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
