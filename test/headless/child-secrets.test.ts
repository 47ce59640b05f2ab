/**
 * No child process gets a key it does not need: the real `teleporter-watch` command (with
 * `apiKey: { env: … }` and another secret in its environment) starts the embedded local service, and
 * every process under it is read from /proc (environment and command line): neither the key, nor the
 * other secret, nor the names of their variables appear in any of them.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for';
import { baseConfig, tempDir, writeConfig } from './rig';

const BIN = join(__dirname, '..', '..', 'bin', 'teleporter-watch.cjs');
const KEY = `sk-child-test-${randomBytes(12).toString('hex')}`;
const OTHER = `other-secret-${randomBytes(12).toString('hex')}`;

/** Every process whose parent chain leads to `root` (root excluded), from /proc's ppid fields. */
function descendants(root: number): number[] {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parentOf.set(Number(name), ppid);
    } catch {
      // the process ended while we looked
    }
  }
  const under = (pid: number): boolean => {
    for (let p = parentOf.get(pid); p !== undefined && p > 1; p = parentOf.get(p)) if (p === root) return true;
    return false;
  };
  return [...parentOf.keys()].filter(under);
}

const stopAtEnd: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stopAtEnd) await stop();
});

describe.skipIf(!existsSync('/proc/self/environ'))('child processes and secrets', () => {
  it('the embedded local service never receives the API key or any other secret of the watcher', async () => {
    const dir = tempDir('tw-child-env-');
    // dataSource local: the watcher starts the embedded service as its child.
    const file = writeConfig(dir, baseConfig('local', { dataSource: 'local', apiKey: { env: 'TW_CHILD_TEST_KEY' } }));
    const child = spawn(process.execPath, [BIN, '--config', file], {
      env: { ...process.env, TW_CHILD_TEST_KEY: KEY, TW_DEPLOY_SECRET_TOKEN: OTHER },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    stopAtEnd.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    await waitFor(() => /teleporter-watch: watching /.test(out) || child.exitCode !== null || undefined, 60_000, 'the watcher to start');
    expect(out).toMatch(/API key from environment variable TW_CHILD_TEST_KEY/);

    // The watcher itself was given the key (it is the one process that may hold it)...
    const own = readFileSync(`/proc/${child.pid}/environ`);
    expect(own.includes(Buffer.from(KEY))).toBe(true);
    // ...and the service it started is among its descendants.
    const pids = descendants(child.pid!);
    const cmdlines = pids.map((pid) => ({ pid, cmd: readFileSync(`/proc/${pid}/cmdline`) }));
    expect(cmdlines.some(({ cmd }) => cmd.includes(Buffer.from('local-service')))).toBe(true);

    const leaks: string[] = [];
    for (const { pid, cmd } of cmdlines) {
      let env: Buffer;
      try {
        env = readFileSync(`/proc/${pid}/environ`);
      } catch {
        continue; // ended meanwhile
      }
      for (const secret of [KEY, OTHER, 'TW_CHILD_TEST_KEY', 'TW_DEPLOY_SECRET_TOKEN']) {
        if (env.includes(Buffer.from(secret))) leaks.push(`${pid} environ holds ${secret}`);
        if (cmd.includes(Buffer.from(secret))) leaks.push(`${pid} cmdline holds ${secret}`);
      }
    }
    expect(leaks).toEqual([]);
  }, 90_000);
});
