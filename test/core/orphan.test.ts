/**
 * A child never outlives its parent: a real parent process runs the core's launcher, is killed with
 * SIGKILL (no handler can run), and its local service exits by itself because its stdin pipe closed.
 * The database lock is then free: a new launcher on the same data folder starts a service on it.
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/log/logger';
import { LocalServiceLauncher } from '../../src/core/local-service/launcher';
import { localServiceSpawnSpec } from '../../src/host/local-service-spawn';
import { TSX_LOADER } from '../../src/host/paths';
import { tempDir } from './helpers';
import { alive } from '../support/process-alive';
import { waitFor } from '../support/wait-for';

const PARENT = join(__dirname, 'fixtures', 'launcher-parent.ts');
const refused = (url: string) =>
  fetch(`${url}/_local/info`).then(
    () => false,
    () => true,
  );

describe('local service lifetime', () => {
  const tmp = tempDir();
  let launcher: LocalServiceLauncher | null = null;
  const pids: number[] = [];
  afterEach(async () => {
    await launcher?.close();
    for (const pid of pids.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
    tmp.cleanup();
  });

  it('exits when its parent is killed with SIGKILL, and frees the database for the next launch', async () => {
    const parent = spawn(process.execPath, ['--import', TSX_LOADER, PARENT, tmp.dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    pids.push(parent.pid!);
    let out = '';
    parent.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    parent.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
    await waitFor(() => /service (\S+) (\d+)\n/.test(out) || parent.exitCode !== null, 20_000, 'the parent to print its service');
    const m = /service (\S+) (\d+)\n/.exec(out);
    expect(m, out).not.toBeNull();
    const [, url, pidText] = m!;
    const servicePid = Number(pidText);
    pids.push(servicePid);
    expect(await refused(url!)).toBe(false);
    if (process.platform !== 'win32') expect(statSync(join(tmp.dir, 'local-service.sqlite')).mode & 0o777).toBe(0o600);

    const parentGone = new Promise((resolve) => parent.once('exit', resolve));
    parent.kill('SIGKILL');
    await parentGone;
    await waitFor(() => !alive(servicePid), 20_000, 'the orphaned service to exit');
    expect(await refused(url!)).toBe(true);

    // The next launch on the same data folder opens the same database file.
    const spec = localServiceSpawnSpec({ rate: 5, seed: 11 });
    if (spec.kind !== 'spawn') throw new Error('expected a spawn spec');
    launcher = new LocalServiceLauncher(spec, tmp.dir, createLogger());
    const next = await launcher.start();
    expect(((await (await fetch(`${next}/_local/info`)).json()) as { simulated: boolean }).simulated).toBe(true);
  });
});
