import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = resolve(__dirname, '..', '..');
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function start(args: string[], env: Record<string, string | undefined>) {
  const clean: Record<string, string | undefined> = { ...process.env, TELEPORTER_WATCH_SKIP_BUILD: '1', ...env };
  for (const [k, v] of Object.entries(clean)) if (v === undefined) delete clean[k];
  return spawnSync(process.execPath, [join(root, 'scripts', 'start.mjs'), ...args], { cwd: root, env: clean, encoding: 'utf8', timeout: 60_000 });
}

describe('npm start', () => {
  it('without an Electron binary says so in one line and runs the web host', () => {
    // An empty Electron dist folder: as on this machine, there is no binary to find.
    const empty = mkdtempSync(join(tmpdir(), 'tw-no-electron-'));
    dirs.push(empty);
    const r = start(['--help'], { ELECTRON_OVERRIDE_DIST_PATH: empty });
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('Electron is not installed on this machine (ELECTRON_SKIP_BINARY_DOWNLOAD); starting the web host instead');
    // The web host's own help: its CLI really ran, with our arguments.
    expect(lines[1]).toMatch(/^Usage: npm run start:web/);
  });

  it('with an Electron binary launches it on the app folder with the arguments', () => {
    // A stand-in for the Electron binary (the Electron boundary): it reports how it was started.
    const dist = mkdtempSync(join(tmpdir(), 'tw-fake-electron-'));
    dirs.push(dist);
    const bin = join(dist, 'electron');
    writeFileSync(bin, '#!/bin/sh\necho "electron-args:$*"\necho "run-as-node:${ELECTRON_RUN_AS_NODE:-unset}"\nexit 7\n');
    chmodSync(bin, 0o755);
    const r = start(['--hidden'], { ELECTRON_OVERRIDE_DIST_PATH: dist, ELECTRON_RUN_AS_NODE: '1' });
    expect(r.stdout).not.toContain('Electron is not installed');
    expect(r.stdout).toContain(`electron-args:${root} --hidden`);
    expect(r.stdout).toContain('run-as-node:unset');
    expect(r.status).toBe(7);
  });
});
