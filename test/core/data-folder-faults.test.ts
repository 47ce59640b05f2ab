/**
 * A data folder the core cannot use, made for real: a folder the user may not write (the core runs as
 * another user, since root writes anywhere), a disk that fills (a file-size limit on the process), a
 * file where the folder should be, and a database written by a newer version. Each is refused with a
 * message that says what is wrong and what to do, and nothing in the folder is changed.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMonitorCore } from '../../src/core';
import { openStore } from '../../src/core/store';
import { MIGRATIONS } from '../../src/core/store/migrations';
import { loadSqlite } from '../../src/sqlite';
import { tempDir } from './helpers';

const fixture = resolve(__dirname, 'fixtures/open-core.ts');
const dirs: { cleanup(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));
const folder = () => {
  const d = tempDir('tw-fault-');
  dirs.push(d);
  chmodSync(d.dir, 0o755);
  return d.dir;
};

/** Starts the core in a child process, optionally as another user or with a command in front. */
function openInChild(dataDir: string, prefix: string[] = []): { ok: boolean; kind?: string; message?: string } {
  const [cmd, ...args] = [...prefix, process.execPath, '--import', 'tsx', fixture, dataDir];
  const r = spawnSync(cmd, args, { encoding: 'utf8', env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' } });
  const line = r.stdout.trim().split('\n').at(-1) ?? '';
  if (!line.startsWith('{')) throw new Error(`no answer from the child (status ${r.status}): ${r.stderr}`);
  return JSON.parse(line) as { ok: boolean; kind?: string; message?: string };
}

const isRoot = process.getuid?.() === 0;

describe('a data folder the core cannot use', () => {
  it('read-only: says so and how to fix it', () => {
    const parent = folder();
    const dataDir = join(parent, 'data');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o555);
    // Root ignores permission bits through its DAC capabilities: the core runs as root without them,
    // so the folder is read-only to it while the project's files (wherever the clone is) stay readable.
    const as = isRoot ? ['setpriv', '--bounding-set', '-dac_override,-dac_read_search', '--'] : [];
    expect(openInChild(dataDir, as)).toEqual({
      ok: false,
      kind: 'internal',
      message: `The data folder ${dataDir} is read-only: Teleporter Watch cannot save its database there. Give your user write access to it, or start Teleporter Watch with another data folder (environment variable TELEPORTER_WATCH_DATA_DIR).`,
    });
  });

  it('full: says the disk is full or a size limit was reached', () => {
    const dataDir = folder();
    // A 16 KiB file-size limit: the database cannot grow past its first pages, as on a full disk.
    const r = openInChild(dataDir, ['prlimit', '--fsize=16384']);
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(
      new RegExp(
        `^Teleporter Watch could not write to its data folder ${dataDir}: the disk is full or a size limit was reached \\(.+\\)\\. Free some space, or start`,
      ),
    );
  });

  it('a file where the folder should be: says so, and leaves the file alone', async () => {
    const path = join(folder(), 'data');
    writeFileSync(path, 'my notes');
    await expect(createMonitorCore({ dataDir: path, shell: 'web', version: 't', autoPoll: false })).rejects.toThrow(
      `The data folder ${path} is a file, not a folder. Move that file away, or start Teleporter Watch with another data folder (environment variable TELEPORTER_WATCH_DATA_DIR).`,
    );
    expect(readFileSync(path, 'utf8')).toBe('my notes');
  });

  it('a database from a newer version: says so, and keeps that database as it was', async () => {
    const dataDir = folder();
    const store = openStore(dataDir);
    store.pollState.set('cursor', 'kept');
    store.close();
    const { DatabaseSync } = loadSqlite();
    const db = new DatabaseSync(join(dataDir, 'monitor.sqlite'));
    db.exec('PRAGMA user_version = 99');
    db.close();
    await expect(createMonitorCore({ dataDir, shell: 'web', version: 't', autoPoll: false })).rejects.toThrow(
      `The data folder ${dataDir} holds a database from a newer Teleporter Watch (schema 99; this version knows ${MIGRATIONS.length}). Install that newer version again, or start`,
    );
    const after = new DatabaseSync(join(dataDir, 'monitor.sqlite'), { readOnly: true });
    expect(after.prepare('PRAGMA user_version').get()).toEqual({ user_version: 99 });
    expect(after.prepare("SELECT json FROM poll_state WHERE key = 'cursor'").get()).toEqual({ json: '"kept"' });
    after.close();
  });
});
