/**
 * What electron.vite.config.ts builds for the desktop app (`npm test` builds before the unit tests;
 * alone: `npm run build` first): the local service entry runs as Node the way the shell starts it
 * (Electron binary + ELECTRON_RUN_AS_NODE), and the preload is CommonJS that loads only electron.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(__dirname, '..', '..');
const out = (p: string) => join(root, 'out', p);
const built = (p: string) => {
  if (!existsSync(out(p))) throw new Error(`out/${p} is missing: run "npm run build" first.`);
  return out(p);
};
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('build output', () => {
  it('out/main/local-service.js starts the local service under Electron-as-Node and serves the API', async () => {
    const service = built('main/local-service.js');
    const dir = mkdtempSync(join(tmpdir(), 'tw-built-service-'));
    dirs.push(dir);
    // The shell's spawn: <electron> out/main/local-service.js --port 0 --db <dataDir>/local-service.sqlite
    const child = spawn(process.execPath, [service, '--port', '0', '--db', join(dir, 'local-service.sqlite')], {
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((ok, fail) => {
        let buf = '';
        const timer = setTimeout(() => fail(new Error(`no "listening on" line in 20 s: ${buf}`)), 20_000);
        child.stdout.setEncoding('utf8').on('data', (c: string) => {
          buf += c;
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(buf);
          if (m) {
            clearTimeout(timer);
            ok(m[1]!);
          }
        });
        child.on('exit', (code) => fail(new Error(`service exited with ${code}`)));
      });
      const res = await fetch(`${url}/v1/teleporter/messages?pageSize=2&network=mainnet`);
      expect(res.status).toBe(200);
      expect(Array.isArray(((await res.json()) as { messages: unknown }).messages)).toBe(true);
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('out/preload/index.js is CommonJS and loads nothing but electron', () => {
    const code = readFileSync(built('preload/index.js'), 'utf8');
    expect(code.startsWith('"use strict"')).toBe(true);
    expect(code).not.toMatch(/^\s*import\s|^\s*export\s/m);
    expect([...code.matchAll(/require\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1])).toEqual(['electron']);
    expect(code).toContain('exposeInMainWorld("monitor"');
  });
});
