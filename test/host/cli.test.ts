import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TSX_LOADER, PROJECT_ROOT } from '../../src/host/paths';
import { invoke } from './http-client';
import { waitFor } from '../support/wait-for';

const CLI = join(PROJECT_ROOT, 'src', 'host', 'cli.ts');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const refused = (url: string) =>
  fetch(url).then(
    () => false,
    () => true,
  );

describe('npm run start:web', () => {
  it('explains a bad flag and exits 1', () => {
    const r = spawnSync(process.execPath, ['--import', TSX_LOADER, CLI, '--port', 'eighty'], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Teleporter Watch: --port must be a whole number');
  });

  it('starts the core with the local service, prints the URL, and stops everything on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tw-cli-'));
    dirs.push(dataDir);
    const child = spawn(process.execPath, ['--import', TSX_LOADER, CLI, '--no-open', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await waitFor(() => /press Ctrl\+C/.test(out) || child.exitCode !== null, 45_000, 'the host to start');
      expect(out, 'host did not start').toMatch(/press Ctrl\+C/);
      const url = /Teleporter Watch: (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([\w-]+))/.exec(out);
      const service = /data from (http:\/\/127\.0\.0\.1:\d+) \(simulated demo data/.exec(out);
      expect(url, out).not.toBeNull();
      expect(service, out).not.toBeNull();
      const info = JSON.parse((await invoke(Number(url![2]), url![3]!, 'getAppInfo')).body);
      expect(info.value).toMatchObject({ shell: 'web', dataSource: { kind: 'local', simulated: true, baseUrl: service![1] } });
      expect(await refused(`${service![1]}/_local/info`)).toBe(false);

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(await refused(url![1]!)).toBe(true);
      expect(await refused(`${service![1]}/_local/info`)).toBe(true);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});
