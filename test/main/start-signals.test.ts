/**
 * `npm start` (scripts/start.mjs) stopped by a signal stops everything it started: on a machine without
 * the Electron binary it runs the web host (through tsx), which starts the embedded local service; after
 * SIGINT or SIGTERM to the script's own process, no process of that tree is left.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for';

const root = resolve(__dirname, '..', '..');
const dirs: string[] = [];
const started: number[] = [];
afterEach(() => {
  // A failed test leaves nothing behind either.
  for (const pid of started.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

/** Its state letter from /proc (Z: a zombie, gone but for its exit status). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Every process whose parent chain leads to `pid`, from /proc. */
function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parentOf.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const out: number[] = [];
  let frontier = [pid];
  while (frontier.length) {
    const next = [...parentOf].filter(([, ppid]) => frontier.includes(ppid)).map(([p]) => p);
    out.push(...next);
    frontier = next;
  }
  return out;
}

describe.runIf(existsSync('/proc/self/stat'))('npm start and signals', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} to the script stops the web host and the local service it started`, async () => {
      const empty = mkdtempSync(join(tmpdir(), 'tw-no-electron-'));
      const data = mkdtempSync(join(tmpdir(), 'tw-start-data-'));
      dirs.push(empty, data);
      const env: NodeJS.ProcessEnv = { ...process.env, TELEPORTER_WATCH_SKIP_BUILD: '1', ELECTRON_OVERRIDE_DIST_PATH: empty };
      const child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs'), '--port', '0', '--no-open', '--data-dir', data], {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      started.push(child.pid!);
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise<{ code: number | null; signal: string | null }>((r) => child.on('exit', (code, sig) => r({ code, signal: sig })));
      // The host prints its address once it listens; the local service is up by then (the host waits for it).
      const url = await waitFor(() => /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(out)?.[0], 60_000, 'the web host address');
      const tree = descendants(child.pid!);
      started.push(...tree);
      const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      // What it started: the web host and the local service, each a process of the tree.
      expect(tree.map(cmdline).some((c) => c.includes('src/host/cli.ts'))).toBe(true);
      expect(tree.map(cmdline).some((c) => c.includes('local-service'))).toBe(true);
      expect((await fetch(url)).status).toBe(200);

      child.kill(signal);
      const r = await exited;
      expect(r.code, out).toBe(0);
      // Nothing it started outlives it (each awaited, not slept for).
      await waitFor(() => tree.every((pid) => !alive(pid)), 15_000, `every process of the tree gone after ${signal}`);
    }, 90_000);
  }
});
