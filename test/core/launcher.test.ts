import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/log/logger';
import { LocalServiceLauncher } from '../../src/core/local-service/launcher';
import { tempDir } from './helpers';
import { alive } from '../support/process-alive';
import { waitFor } from '../support/wait-for';

const CLI = join(__dirname, '..', '..', 'src', 'local-service', 'cli.ts');

describe('local service launcher', () => {
  const tmp = tempDir();
  let launcher: LocalServiceLauncher | null = null;
  afterEach(async () => {
    await launcher?.close();
    tmp.cleanup();
  });

  it('spawns the service, waits for its listening line, restarts it after a crash and kills it on close', async () => {
    const urls: string[] = [];
    launcher = new LocalServiceLauncher(
      { kind: 'spawn', command: process.execPath, args: ['--import', 'tsx', CLI, '--rate', '1'] },
      tmp.dir,
      createLogger(),
      (u) => urls.push(u),
    );
    const url = await launcher.start();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${url}/v1/teleporter/messages?network=mainnet&pageSize=1`);
    expect(res.status).toBe(200);
    // The demo's world has one relayer wallet that runs dry (the Relayers view's fuel warning).
    const info = (await (await fetch(`${url}/_local/info`)).json()) as { world?: { dryWallet?: boolean } };
    expect(info.world?.dryWallet).toBe(true);
    const firstPid = launcher.pid()!;
    process.kill(firstPid, 'SIGKILL');
    await waitFor(() => urls.length >= 2, 10_000, 'the restarted service');
    expect(urls).toHaveLength(2);
    const secondPid = launcher.pid()!;
    expect(secondPid).not.toBe(firstPid);
    expect((await fetch(`${launcher.url()}/v1/teleporter/messages?network=fuji&pageSize=1`)).status).toBe(200);
    await launcher.close();
    expect(alive(secondPid)).toBe(false);
    launcher = null;
  }, 60_000);

  it('fails with a clear error when the command cannot start', async () => {
    launcher = new LocalServiceLauncher({ kind: 'spawn', command: join(tmp.dir, 'no-such-binary'), args: [] }, tmp.dir, createLogger());
    await expect(launcher.start()).rejects.toThrow(/Could not start the local service/);
  });
});
