/**
 * One database file, one service: a second service on a file another service holds stops with a
 * clear message (exit 1) and leaves the file to the first; once the first dies, even by SIGKILL,
 * the lock is gone and a new service opens the file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RecordStore } from '../../src/local-service/store/record-store';
import { startServiceProcess } from '../support/service-process';

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
  const s = startServiceProcess(['--db', db, '--rate', '50', '--speed', '20', '--no-warm']);
  pids.push(s.child.pid!);
  return s;
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
    const a = new RecordStore(path);
    try {
      expect(() => new RecordStore(path)).toThrow(`Database ${path} is in use by another local service`);
    } finally {
      a.close();
    }
    new RecordStore(path).close();
  });
});
