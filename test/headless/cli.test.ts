import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService } from '../../src/local-service';
import { waitFor } from '../support/wait-for';
import { baseConfig, startWatcher, tempDir, writeConfig, type Service } from './rig';

const BIN = join(__dirname, '..', '..', 'bin', 'teleporter-watch.cjs');

function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '', code: null as number | null, signal: null as string | null };
  child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  const exited = new Promise<typeof out>((resolve) =>
    child.on('exit', (code, signal) => {
      out.code = code;
      out.signal = signal;
      resolve(out);
    }),
  );
  return { child, out, exited };
}

let svc: Service;
beforeAll(async () => {
  // The key the command is given must be one the service takes: `ready.` waits for the baseline.
  svc = await startLocalService({ rate: 0, seed: 3, apiKeys: ['sk-very-secret-key-42'] });
});
afterAll(async () => {
  await svc.close();
});

describe('teleporter-watch command', () => {
  it('a bad config prints every problem with its line and exits 2 before starting anything', async () => {
    const dir = tempDir('tw-cli-');
    const file = writeConfig(dir, { network: 'moon', pollIntervalSeconds: 1, dataDir: './data' });
    const r = await run(['--config', file]).exited;
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /has 2 problems:\n {2}line \d+: network: network must be one of[\s\S]*line \d+: pollIntervalSeconds: Poll interval must be at least 5 seconds/,
    );
    const check = await run(['--config', writeConfig(dir, baseConfig(svc.url)), '--check']).exited;
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(
      /is valid: it watches 1 address, 0 relayers, 0 routes and 0 feeds, and has 0 alert channels\.\n {2}address {2}treasury \(0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC\) on mainnet\n/,
    );
    // The rig's file gives custom figures; a named plan says both its limits and the keyless ones.
    expect(check.stdout).toContain('  plan     custom: 200,000 CU a minute, 300,000,000 a day (the day resets at 00:00 UTC)\n');
    const growth = await run(['--config', writeConfig(dir, baseConfig(svc.url, { plan: 'growth' })), '--check']).exited;
    expect(growth.stdout).toContain(
      '  plan     growth: without a key unauthenticated, 6,000 CU a minute, 1,200,000 a day (no apiKey in the file; with a key growth, 14,000 CU a minute, 11,200,000 a day) (the day resets at 00:00 UTC)\n',
    );
    expect((await run(['--config']).exited).code).toBe(2);
  }, 90_000);

  it('refuses a key file others can read (exit 1, nothing started)', async () => {
    const dir = tempDir('tw-cli-');
    writeFileSync(join(dir, 'key'), 'k-1234567890abc');
    chmodSync(join(dir, 'key'), 0o644);
    const r = await run(['--config', writeConfig(dir, baseConfig(svc.url, { dataSource: svc.url, apiKey: { file: 'key' } }))]).exited;
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Refusing the API key file .*key: others can read it \(mode 644\)/);
  }, 60_000);

  it('runs, serves /metrics behind its bearer token, never prints the key, and exits 0 on SIGTERM', async () => {
    const dir = tempDir('tw-cli-');
    writeFileSync(join(dir, 'token'), 'metrics-token-0123456789');
    chmodSync(join(dir, 'token'), 0o600);
    const file = writeConfig(dir, baseConfig(svc.url, { apiKey: { env: 'TW_TEST_KEY' }, metrics: { listen: '127.0.0.1:0', bearerTokenFile: 'token' } }));
    const p = run(['--config', file], { TW_TEST_KEY: 'sk-very-secret-key-42' });
    try {
      await waitFor(() => /ready\./.test(p.out.stdout) || p.out.code !== null || undefined, 30_000, 'ready');
      expect(p.out.stdout).toMatch(/API key from environment variable TW_TEST_KEY/);
      // The start line names what it watches, as --check does.
      expect(p.out.stdout).toMatch(/watching 1 address \(treasury\), 0 relayers, 0 routes and 0 feeds \(added 1, updated 0, removed 0\)/);
      // ready. means every watch is live, each announced first.
      expect(p.out.stdout).toMatch(
        /baselining 1 of 1 watches and feeds[^\n]*\n[\s\S]*live: treasury \(0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC\): baseline done in \d+\.\d s[\s\S]*ready\. Its one watch or feed is live\./,
      );
      const url = /metrics at (\S+)/.exec(p.out.stdout)?.[1] as string;
      expect(new URL(url).hostname).toBe('127.0.0.1');
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
      const ok = await fetch(url, { headers: { authorization: 'Bearer metrics-token-0123456789' } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await ok.text();
      expect(text).toMatch(/^teleporter_watch_watchers 1$/m);
      expect(text).toMatch(/^teleporter_watch_watch_live\{watch="treasury"\} 1$/m);
      expect(text).toMatch(/^teleporter_watch_watchers_baselining 0$/m);
      expect((await fetch(url.replace('/metrics', '/nope'))).status).toBe(404);
    } finally {
      p.child.kill('SIGTERM');
    }
    const r = await p.exited;
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/SIGTERM: draining the outbox[\s\S]*stopped\./);
    expect(r.stdout + r.stderr).not.toContain('sk-very-secret-key-42');
  }, 60_000);

  it('with a key the source refuses, says what holds the baseline up and never says ready', async () => {
    const dir = tempDir('tw-cli-');
    const file = writeConfig(dir, baseConfig(svc.url, { apiKey: { env: 'TW_TEST_KEY' } }));
    const p = run(['--config', file], { TW_TEST_KEY: 'sk-not-the-right-key-7' });
    try {
      await waitFor(() => /baselining is held up: /.test(p.out.stdout) || p.out.code !== null || undefined, 30_000, 'the held-up line');
      expect(p.out.stdout).toMatch(/baselining 1 of 1 watches and feeds[\s\S]*baselining is held up: .*(key|unauthori[sz]ed)/i);
      // The watcher has no Settings: the advice names its config file.
      expect(p.out.stdout).toContain(`Check or replace the key in the config file ${file}, or delete it`);
      expect(p.out.stdout).not.toContain('Settings');
      expect(p.out.stdout).not.toMatch(/ready\.|live: /);
    } finally {
      p.child.kill('SIGTERM');
    }
    expect((await p.exited).code).toBe(0);
  }, 60_000);

  it('--web with no built user interface is a clear error before anything starts (a start never builds)', async () => {
    const dir = tempDir('tw-cli-');
    const { loadConfigFile } = await import('../../src/headless/config-file');
    const { startHeadless } = await import('../../src/headless/watcher');
    await expect(
      startHeadless({ loaded: loadConfigFile(writeConfig(dir, baseConfig(svc.url))), web: { rendererDir: join(dir, 'no-renderer') }, metricsPort: 0 }),
    ).rejects.toThrow(/The user interface is not built \(.*no-renderer\/index\.html is missing\)\. Run `npm run build`/);
    expect(existsSync(join(dir, 'data'))).toBe(false);
  });

  it('--web serves the user interface from the same core on 127.0.0.1', async () => {
    const dir = tempDir('tw-cli-');
    const rendererDir = join(dir, 'renderer');
    mkdirSync(rendererDir);
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Teleporter Watch</title>');
    const { loadConfigFile } = await import('../../src/headless/config-file');
    const { startHeadless } = await import('../../src/headless/watcher');
    const w = await startHeadless({
      loaded: loadConfigFile(writeConfig(dir, baseConfig(svc.url))),
      web: { rendererDir },
      metricsPort: 0,
      keychainService: `tw-cli-web-${process.pid}`,
    });
    try {
      expect(new URL(w.web!.url).hostname).toBe('127.0.0.1');
      expect(await (await fetch(w.web!.url)).text()).toContain('Teleporter Watch');
      const r = await fetch(`${w.web!.origin}/api/invoke/listWatches`, {
        method: 'POST',
        headers: { authorization: `Bearer ${w.web!.token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(r.status).toBe(200);
      expect(JSON.stringify(await r.json())).toContain('treasury');
      // The page knows it is served by the headless watcher, not by the web host.
      const info = await fetch(`${w.web!.origin}/api/invoke/getAppInfo`, {
        method: 'POST',
        headers: { authorization: `Bearer ${w.web!.token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(await info.json()).toMatchObject({ ok: true, value: { shell: 'headless' } });
    } finally {
      await w.close();
    }
  });

  it('restarting on the same data folder keeps the watchlist and its baseline', async () => {
    const dir = tempDir('tw-cli-');
    const config = baseConfig(svc.url);
    const a = await startWatcher(dir, config);
    expect(a.sync).toEqual({ added: 1, updated: 0, removed: 0 });
    await a.close();
    const b = await startWatcher(dir, { ...config, watches: [{ address: (config.watches as { address: string }[])[0]!.address, label: 'renamed' }] });
    expect(b.sync).toEqual({ added: 0, updated: 1, removed: 0 });
    await b.close();
  });
});

describe('the bin in a production install', () => {
  /** An app folder with the bin and sources (and the dev dependencies within reach) but no bundle. */
  function unbuiltApp(): string {
    const app = tempDir('tw-app-');
    mkdirSync(join(app, 'bin'));
    copyFileSync(BIN, join(app, 'bin', 'teleporter-watch.cjs'));
    copyFileSync(join(dirname(BIN), 'allocator-env.cjs'), join(app, 'bin', 'allocator-env.cjs'));
    mkdirSync(join(app, 'src', 'headless'), { recursive: true });
    writeFileSync(join(app, 'src', 'headless', 'cli.ts'), '');
    writeFileSync(join(app, 'package.json'), '{}');
    symlinkSync(join(__dirname, '..', '..', 'node_modules'), join(app, 'node_modules'));
    return app;
  }

  it('never builds at a production start: a missing bundle is an error saying what to run', async () => {
    const app = unbuiltApp();
    const child = spawn(process.execPath, [join(app, 'bin', 'teleporter-watch.cjs'), '--help'], {
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(out).toMatch(/out\/headless\/cli\.js is missing\. Build it where the dev dependencies are installed \(npm run build:headless\)/);
    expect(out).not.toMatch(/building/);
    expect(existsSync(join(app, 'out'))).toBe(false);
  });
});
