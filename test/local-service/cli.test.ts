/** The command line: the listening line, flags, clear errors, and a clean stop on SIGTERM / SIGINT. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../src/local-service/cli-args';
import { get } from './helpers';

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

function start(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/local-service/cli.ts', ...args], {
    cwd: process.cwd(),
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} before listening: ${stderr}`)));
  });
  listening.catch(() => undefined); // tests that expect an early exit never await it
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, listening, exited, out: () => stdout, err: () => stderr };
}

describe('service command line', () => {
  it('prints the listening line with the real port, serves, and stops cleanly on SIGTERM', async () => {
    const p = start(['--port', '0', '--seed', '3', '--rate', '0', '--preload', '25', '--api-key', 'cli-test-key-1', '--require-key']);
    const url = await p.listening;
    expect((await get(`${url}/v1/teleporter/messages?pageSize=5`)).status).toBe(401);
    const ok = await get(`${url}/v1/teleporter/messages?pageSize=5`, { 'x-service-api-key': 'cli-test-key-1' });
    expect(ok.status).toBe(200);
    expect((ok.json as { messages: unknown[] }).messages).toHaveLength(5);
    expect(((await get(`${url}/_local/info`)).json as { seed: number }).seed).toBe(3);
    p.child.kill('SIGTERM');
    expect(await p.exited).toEqual({ code: 0, signal: null });
    expect(p.out()).toBe(`listening on ${url}\n`);
    expect(p.err()).toContain('SIGTERM: stopping');
    await expect(fetch(url)).rejects.toThrow();
  });

  it('stops cleanly on SIGINT too, and keeps the --db file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'service-cli-'));
    try {
      const db = join(dir, 'service.sqlite');
      const p = start(['--port', '0', '--db', db, '--rate', '0', '--preload', '5']);
      await p.listening;
      p.child.kill('SIGINT');
      const ex = await p.exited;
      expect(ex, p.err() + '|' + p.out()).toEqual({ code: 0, signal: null });
      expect(existsSync(db)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('uses the port it is given, and says so clearly when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const p = start(['--port', String(port), '--rate', '0']);
      expect(await p.exited).toEqual({ code: 1, signal: null });
      expect(p.err()).toContain(`error: port ${port} on 127.0.0.1 is already in use; pick another --port or use --port 0.`);
      expect(p.out()).toBe('');
    } finally {
      blocker.close();
    }
  });

  it('exits 2 with a clear message and the usage for a bad flag', async () => {
    const p = start(['--rate', 'fast']);
    expect(await p.exited).toEqual({ code: 2, signal: null });
    expect(p.err()).toMatch(/^error: --rate must be a number \(got "fast"\)\.\n\nUsage: npm run service/);
  });
});

describe('flag parsing', () => {
  it('maps every flag to a service option', () => {
    expect(
      parseCliArgs([
        '--port',
        '8080',
        '--db',
        '/tmp/x.sqlite',
        '--seed',
        '9',
        '--rate',
        '0.5',
        '--speed',
        '20',
        '--api-key',
        'a-key-1234',
        '--api-key',
        'b-key-5678',
        '--require-key',
        '--faults',
        'flaky',
        '--preload',
        '1000',
        '--rate-limit',
        '100,10',
        '--log-requests',
      ]),
    ).toEqual({
      ok: true,
      value: {
        help: false,
        options: {
          port: 8080,
          dbPath: '/tmp/x.sqlite',
          seed: 9,
          rate: 0.5,
          speed: 20,
          apiKeys: ['a-key-1234', 'b-key-5678'],
          requireKey: true,
          faults: 'flaky',
          preload: 1000,
          rateLimitPerMinute: { keyed: 100, anonymous: 10 },
          logRequests: true,
        },
      },
    });
    expect(parseCliArgs(['--help'])).toEqual({ ok: true, value: { help: true } });
  });

  it('maps the realistic profile and each behaviour, on and off', () => {
    const options = (argv: string[]) => {
      const r = parseCliArgs(argv);
      return r.ok && !r.value.help ? r.value.options : r;
    };
    expect(options(['--realistic'])).toEqual({ realistic: true });
    expect(options(['--plans', 'growth,free'])).toEqual({ computeUnits: { keyed: 'growth', anonymous: 'free' } });
    expect(options(['--realistic', '--no-lag', '--no-loose-order', '--sparse-routes', '--messenger-versions', '1', '--receipt-resends', '--stalls'])).toEqual({
      realistic: true,
      lag: false,
      looseOrder: false,
      sparseRoutes: true,
      messengerVersions: 1,
      receiptResends: true,
      stalls: true,
    });
    expect(options(['--lag', '--loose-order', '--no-sparse-routes', '--messenger-versions', '2', '--no-receipt-resends', '--no-stalls'])).toEqual({
      lag: true,
      looseOrder: true,
      sparseRoutes: false,
      messengerVersions: 2,
      receiptResends: false,
      stalls: false,
    });
    expect(options(['--dry-wallet'])).toEqual({ dryWallet: true });
    expect(options(['--demo-day'])).toEqual({ demoDay: true });
    expect(options(['--no-demo-day'])).toEqual({ demoDay: false });
    expect(options(['--no-dry-wallet'])).toEqual({ dryWallet: false });
  });

  it.each([
    [['--port', '80.5'], '--port must be a whole number (got "80.5").'],
    [['--seed', ''], '--seed must be a whole number (got "").'],
    [['--rate-limit', '100'], '--rate-limit must be <keyed>,<anonymous> requests per minute, like 600,120 (got "100").'],
    [['--messenger-versions', '3'], '--messenger-versions must be 1 or 2 (got "3").'],
    [
      ['--plans', 'gold,free'],
      '--plans must be <keyed>,<anonymous> plans among unauthenticated, free, base, growth, pro, like free,unauthenticated (got "gold,free").',
    ],
    [['--plans', 'pro,free', '--rate-limit', '1,1'], '--plans and --rate-limit contradict each other: give one.'],
    [['--lag', '--no-lag'], '--lag and --no-lag contradict each other.'],
    [['--nope'], "Unknown option '--nope'"],
    [['extra'], "Unexpected argument 'extra'"],
  ])('rejects %j', (argv, message) => {
    const r = parseCliArgs(argv);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.startsWith(message)).toBe(true);
  });
});
