/** The SQLite door (node:sqlite) on real files: the behaviour the stores rely on. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Database } from '../../src/sqlite';

let dir: string;
let db: Database;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tw-sqlite-'));
  db = new Database(join(dir, 'x.sqlite'));
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, n INTEGER)');
});

afterEach(() => {
  if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the runtime', () => {
  it('is Node 22 or newer, the Node that Electron 39 ships', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(22);
  });
});

describe('statements', () => {
  it('runs, gets, lists and iterates rows; no row is undefined', () => {
    const insert = db.prepare('INSERT INTO t (name, n) VALUES (?, ?)');
    expect(insert.run('a', 1)).toEqual({ changes: 1, lastInsertRowid: 1 });
    insert.run('b', 2);
    const one = db.prepare<[number], { id: number; name: string; n: number }>('SELECT * FROM t WHERE id = ?');
    expect(one.get(2)).toEqual({ id: 2, name: 'b', n: 2 });
    expect(one.get(99)).toBeUndefined();
    // Plain objects (one shared shape per statement), as the stores always had.
    expect(Object.getPrototypeOf(one.get(2))).toBe(Object.prototype);
    expect(db.prepare('SELECT name FROM t ORDER BY id').all()).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect([...db.prepare('SELECT n FROM t ORDER BY id').iterate()]).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('plucks the first column in get, all and iterate', () => {
    db.prepare('INSERT INTO t (name, n) VALUES (?, ?), (?, ?)').run('a', 1, 'b', 2);
    const names = db.prepare<[], string>('SELECT name, n FROM t ORDER BY id').pluck();
    expect(names.get()).toBe('a');
    expect(names.all()).toEqual(['a', 'b']);
    expect([...names.iterate()]).toEqual(['a', 'b']);
    expect(db.prepare('SELECT max(n) FROM t WHERE n > 5').pluck().get()).toBeNull();
    expect(db.prepare('SELECT n FROM t WHERE n > 5').pluck().get()).toBeUndefined();
  });

  it('binds whole row objects by name (extra keys ignored) and undefined as NULL', () => {
    const insert = db.prepare<[{ name: string; n: number | undefined; extra: string }]>('INSERT INTO t (name, n) VALUES (@name, @n)');
    insert.run({ name: 'a', n: undefined, extra: 'unused' });
    db.prepare('INSERT INTO t (name, n) VALUES (?, ?)').run('b', undefined);
    expect(db.prepare('SELECT name, n FROM t ORDER BY id').all()).toEqual([
      { name: 'a', n: null },
      { name: 'b', n: null },
    ]);
  });

  it('refuses a value SQLite cannot store with a clear error', () => {
    expect(() => db.prepare('INSERT INTO t (name) VALUES (?)').run(true)).toThrow(/cannot be bound/);
  });
});

describe('transactions', () => {
  const count = () => db.prepare<[], number>('SELECT count(*) FROM t').pluck().get();

  it('commits on return and rolls back on throw', () => {
    const add = db.transaction((name: string) => db.prepare('INSERT INTO t (name) VALUES (?)').run(name).changes);
    expect(add('a')).toBe(1);
    expect(() =>
      db.transaction(() => {
        db.prepare('INSERT INTO t (name) VALUES (?)').run('b');
        throw new Error('boom');
      })(),
    ).toThrow('boom');
    expect(count()).toBe(1);
    expect(db.inTransaction).toBe(false);
  });

  it('nests as savepoints: an inner failure undoes only the inner work', () => {
    db.transaction(() => {
      db.prepare('INSERT INTO t (name) VALUES (?)').run('outer');
      expect(db.inTransaction).toBe(true);
      expect(() =>
        db.transaction(() => {
          db.prepare('INSERT INTO t (name) VALUES (?)').run('inner');
          throw new Error('inner');
        })(),
      ).toThrow('inner');
    })();
    expect(db.prepare('SELECT name FROM t').pluck().all()).toEqual(['outer']);
  });

  it('refuses an async function (it would commit before its work ends) and rolls back', () => {
    expect(() =>
      db.transaction(async () => {
        db.prepare('INSERT INTO t (name) VALUES (?)').run('a');
      })(),
    ).toThrow(/must not be async/);
    expect(count()).toBe(0);
  });
});

describe('the connection', () => {
  it('reads and sets pragmas, simple or as rows', () => {
    expect(db.pragma('journal_mode = WAL')).toEqual([{ journal_mode: 'wal' }]);
    db.pragma('user_version = 7');
    expect(db.pragma('user_version', { simple: true })).toBe(7);
  });

  it('reports open and closed', () => {
    expect(db.open).toBe(true);
    db.close();
    expect(db.open).toBe(false);
  });

  it('opens read-only when asked, and refuses writes then', () => {
    db.close();
    const ro = new Database(join(dir, 'x.sqlite'), { readOnly: true });
    expect(() => ro.exec("INSERT INTO t (name) VALUES ('x')")).toThrow(/readonly/);
    ro.close();
  });

  it('loads node:sqlite without its ExperimentalWarning, and keeps other warnings', () => {
    const code = `
      const { Database } = require(${JSON.stringify(join(process.cwd(), 'src/sqlite/index.ts'))});
      new Database(':memory:').close();
      process.emitWarning('still here', 'ExperimentalWarning');`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', code], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stderr).not.toMatch(/SQLite is an experimental feature/);
    expect(r.stderr).toMatch(/still here/);
  });
});
