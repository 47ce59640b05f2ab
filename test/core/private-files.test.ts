/**
 * The data folder is 0700 and its files 0600 whoever creates them: the core (database, WAL, logs,
 * and the local service's database file before the service opens it) and the service process on its
 * own (its umask), even when an older version left them 0644 under a 022 umask.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMonitorCore } from '../../src/core';
import { SERVICE_CLI, TSX_LOADER } from '../../src/host/paths';
import { tempDir } from './helpers';

const mode = (p: string) => statSync(p).mode & 0o777;
const isWindows = process.platform === 'win32';

describe.skipIf(isWindows)('private data folder', () => {
  let tmp: ReturnType<typeof tempDir>;
  let umask: number;
  beforeEach(() => {
    tmp = tempDir();
    umask = process.umask(0o022);
  });
  afterEach(() => {
    process.umask(umask);
    tmp.cleanup();
  });

  it('the core makes the folder 0700 and its database, WAL and log 0600, narrowing old 0644 ones', async () => {
    const dataDir = join(tmp.dir, 'data');
    mkdirSync(join(dataDir, 'logs'), { recursive: true, mode: 0o755 });
    chmodSync(dataDir, 0o755);
    writeFileSync(join(dataDir, 'logs', 'core.log'), '');
    chmodSync(join(dataDir, 'logs', 'core.log'), 0o644);
    const core = await createMonitorCore({
      dataDir,
      shell: 'web',
      version: 'x',
      localService: { kind: 'url', url: 'http://127.0.0.1:9' },
      autoPoll: false,
      keychainService: `tw-test-${randomBytes(4).toString('hex')}`,
    });
    try {
      await core.invoke('updateSettings', { pollIntervalSeconds: 30 }); // a write, so the WAL exists
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(join(dataDir, 'logs'))).toBe(0o700);
      for (const f of ['monitor.sqlite', 'monitor.sqlite-wal', 'monitor.sqlite-shm', 'logs/core.log']) {
        expect(existsSync(join(dataDir, f)), f).toBe(true);
        expect(mode(join(dataDir, f)).toString(8), f).toBe('600');
      }
    } finally {
      await core.close();
    }
  });

  it('the service process creates its database and WAL 0600 on its own', async () => {
    const db = join(tmp.dir, 'service.sqlite');
    const child = spawn(process.execPath, ['--import', TSX_LOADER, SERVICE_CLI, '--port', '0', '--db', db, '--rate', '0', '--preload', '5', '--no-warm'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          if (out.includes('listening on')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`service exited ${code}`)));
      });
      for (const f of [db, `${db}-wal`]) expect(mode(f).toString(8), f).toBe('600');
    } finally {
      child.kill('SIGTERM');
    }
  });
});
