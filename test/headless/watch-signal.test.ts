/**
 * `npm run watch` as a user or a supervisor runs it: SIGTERM sent to npm must reach the watcher (npm
 * runs the script through `sh -c`, which is replaced by node: `exec`), the watcher gives the outbox its
 * last drain, and every process of the tree exits. Production runs the bundle: no tsx in the tree.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocatorEnv } from '../../bin/allocator-env.cjs';
import { startLocalService } from '../../src/local-service';
import { Database } from '../../src/sqlite';
import { waitFor } from '../support/wait-for';
import { baseConfig, sendWatched, tempDir, writeConfig, type Service } from './rig';

const ROOT = join(__dirname, '..', '..');

/** The process's parent and state from /proc (null: gone). A zombie has exited; only its parent has not asked yet. */
function procStat(pid: number): { ppid: number; state: string } | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { state: rest[0]!, ppid: Number(rest[1]) };
  } catch {
    return null;
  }
}
const alive = (pid: number) => {
  const s = procStat(pid);
  return s !== null && s.state !== 'Z';
};
const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
};
const environ = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');

/** `root` and every process below it. */
function tree(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    const st = Number.isInteger(pid) ? procStat(pid) : null;
    if (st) parents.set(st.ppid, [...(parents.get(st.ppid) ?? []), pid]);
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(parents.get(out[i]!) ?? []));
  return out;
}

/** `npm run watch -- --config <file>` from the project folder, its output gathered. */
function npmRunWatch(file: string) {
  const npm = spawn('npm', ['run', '--silent', 'watch', '--', '--config', file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '' };
  npm.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
  npm.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
  return { npm, out, exited };
}

let svc: Service;
beforeAll(async () => {
  svc = await startLocalService({ rate: 0, seed: 5 });
});
afterAll(async () => {
  await svc.close();
});

describe.skipIf(!existsSync('/proc/self/stat'))('npm run watch and SIGTERM', () => {
  it('SIGTERM to npm reaches the bundled watcher, which drains its outbox, and every process exits', async () => {
    // A webhook that holds its answer until told: the alert is in flight when the signal comes.
    const arrived: unknown[] = [];
    let held: ServerResponse | null = null;
    const hook = createServer((req, res) => {
      let text = '';
      req.on('data', (d: Buffer) => (text += d.toString()));
      req.on('end', () => {
        arrived.push(JSON.parse(text));
        held = res;
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    const dir = tempDir('tw-sigterm-');
    const file = writeConfig(
      dir,
      baseConfig(svc.url, {
        pollIntervalSeconds: 5,
        alerts: { channels: [{ type: 'webhook', name: 'hook', url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/` }] },
      }),
    );
    const { npm, out, exited } = npmRunWatch(file);
    let pids: number[] = [];
    try {
      await waitFor(() => /ready\./.test(out.stdout) || npm.exitCode !== null, 90_000, 'ready (or an early exit)');
      expect(out.stdout, out.stderr).toMatch(/ready\./);
      pids = tree(npm.pid!);
      const commands = pids.map(cmdline);
      // npm, then node itself in sh's place (exec): the watcher is npm's child, and nothing runs through tsx.
      expect(
        commands.some((c) => /bin\/teleporter-watch\.cjs --config/.test(c)),
        commands.join('\n'),
      ).toBe(true);
      expect(
        commands.filter((c) => /\btsx\b/.test(c) || /^(\/bin\/)?sh -c/.test(c)),
        commands.join('\n'),
      ).toEqual([]);
      // The bin replaced itself with a process started with glibc's settings (bin/allocator-env.cjs):
      // one watcher process, npm's own child, with the settings in its environment.
      const watchers = pids.filter((p) => /bin\/teleporter-watch\.cjs --config/.test(cmdline(p)));
      expect(watchers, commands.join('\n')).toHaveLength(1);
      expect(procStat(watchers[0]!)!.ppid).toBe(npm.pid);
      // (When the bin would add them: on glibc, with no MALLOC_* variable of the test run's own.)
      if (allocatorEnv(process.env))
        expect(environ(watchers[0]!)).toEqual(expect.arrayContaining(['MALLOC_ARENA_MAX=1', 'MALLOC_TRIM_THRESHOLD_=65536', 'MALLOC_MMAP_THRESHOLD_=65536']));

      sendWatched(svc);
      await waitFor(() => held, 30_000, 'the alert to reach the webhook');
      npm.kill('SIGTERM');
      await waitFor(() => /SIGTERM: draining the outbox/.test(out.stdout), 10_000, 'the watcher to get the signal');
      // Only now does the receiver answer: the last drain waited for it.
      held!.writeHead(200).end('ok');
      expect(await exited).toBe(0);
      await waitFor(() => pids.every((p) => !alive(p)), 10_000, `every process of the tree to exit (${pids.filter(alive).map(cmdline).join('; ')})`);
      expect(out.stdout).toMatch(/stopped\./);
      expect(arrived).toHaveLength(1);
      const db = new Database(join(dir, 'data', 'monitor.sqlite'), { readOnly: true });
      try {
        expect(db.prepare('SELECT COUNT(*) FROM alert_deliveries WHERE delivered_at IS NOT NULL').pluck().get()).toBe(1);
        expect(db.prepare('SELECT COUNT(*) FROM alert_deliveries WHERE delivered_at IS NULL').pluck().get()).toBe(0);
      } finally {
        db.close();
      }
    } finally {
      // A failed run leaves nothing behind.
      for (const p of pids.filter(alive)) process.kill(p, 'SIGKILL');
      hook.closeAllConnections();
      hook.close();
    }
  }, 150_000);

  it('with the local data source, the bundle starts the bundled service with plain node, and SIGTERM stops both', async () => {
    const dir = tempDir('tw-sigterm-');
    const file = writeConfig(dir, { dataDir: './data', dataSource: 'local', pollIntervalSeconds: 3600, metrics: { listen: '127.0.0.1:0' } });
    const { npm, out, exited } = npmRunWatch(file);
    let pids: number[] = [];
    try {
      await waitFor(() => /ready\./.test(out.stdout) || npm.exitCode !== null, 90_000, 'ready (or an early exit)');
      expect(out.stdout, out.stderr).toMatch(/ready\./);
      const service = await waitFor(
        () => tree(npm.pid!).find((p) => /out\/headless\/local-service\.js --rate 2 --seed \d+ .*--db /.test(cmdline(p))),
        20_000,
        'the bundled local service in the tree',
      );
      pids = tree(npm.pid!);
      expect(pids).toContain(service);
      expect(
        pids.map(cmdline).filter((c) => /\btsx\b|\.ts\b/.test(c)),
        pids.map(cmdline).join('\n'),
      ).toEqual([]);
      npm.kill('SIGTERM');
      expect(await exited).toBe(0);
      await waitFor(() => pids.every((p) => !alive(p)), 10_000, `every process of the tree to exit (${pids.filter(alive).map(cmdline).join('; ')})`);
    } finally {
      for (const p of pids.filter(alive)) process.kill(p, 'SIGKILL');
      if (npm.exitCode === null) npm.kill('SIGKILL');
    }
  }, 150_000);
});
