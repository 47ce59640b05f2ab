/**
 * One database file, one service: a second service on a file another service holds stops with a
 * clear message (exit 1) and leaves the file to the first; once the first dies, even by SIGKILL,
 * the lock is gone and a new service opens the file.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MessageStore } from '../../src/service/store/message-store';
import { SERVICE_CLI, TSX_LOADER } from '../../src/host/paths';

const dirs: string[] = [];
const pids: number[] = [];
afterEach(() => {
  for (const pid of pids.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function runService(db: string) {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, SERVICE_CLI, '--port', '0', '--db', db, '--rate', '50', '--speed', '20', '--no-warm'], { stdio: ['ignore', 'pipe', 'pipe'] });
  pids.push(child.pid!);
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /listening on (\S+)\n/.exec(out);
      if (m) resolve(m[1]!);
    });
    void exited.then((code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  listening.catch(() => undefined);
  return { child, listening, exited, out: () => out };
}

describe('one writer per database file', () => {
  it('refuses a second service on the same file with a clear message; the first keeps serving', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-one-writer-'));
    dirs.push(dir);
    const db = join(dir, 'local-service.sqlite');
    const first = runService(db);
    const url = await first.listening;
    const second = runService(db);
    expect(await second.exited).toBe(1);
    expect(second.out()).toContain(`Database ${db} is in use by another local service`);
    expect((await fetch(`${url}/_local/info`)).status).toBe(200);

    first.child.kill('SIGKILL');
    await first.exited;
    const third = runService(db);
    const thirdUrl = await third.listening;
    expect((await fetch(`${thirdUrl}/_local/info`)).status).toBe(200);
  });

  it('a second store in the same process is refused too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-one-writer-'));
    dirs.push(dir);
    const path = join(dir, 's.sqlite');
    const a = new MessageStore(path);
    try {
      expect(() => new MessageStore(path)).toThrow(`Database ${path} is in use by another local service`);
    } finally {
      a.close();
    }
    new MessageStore(path).close();
  });
});
