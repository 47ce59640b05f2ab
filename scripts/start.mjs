#!/usr/bin/env node
// `npm start`: the desktop app where Electron is installed, otherwise the web host, so the README's
// start command always runs the monitor. Either way out/ is rebuilt first when a source is newer.
// Arguments after `--` go to the app (e.g. `npm start -- --hidden`, or web host flags). SIGINT, SIGTERM
// and SIGHUP go to the child running (the build, then the app), which stops what it started; one that
// has not stopped 10 s later is killed.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const args = process.argv.slice(2);

/** The Electron binary when `npm install` downloaded it (require('electron') is its path). */
function electronBinary() {
  try {
    const p = createRequire(join(root, 'package.json'))('electron');
    return typeof p === 'string' && existsSync(p) ? p : null;
  } catch {
    return null;
  }
}

/** Newest modification time under the given files and folders (ms), 0 when none exist. */
function newest(paths) {
  let t = 0;
  for (const p of paths) {
    if (!existsSync(p)) continue;
    const st = statSync(p);
    if (st.isDirectory()) t = Math.max(t, newest(readdirSync(p).map((n) => join(p, n))));
    else t = Math.max(t, st.mtimeMs);
  }
  return t;
}

const OUTPUTS = ['out/main/index.js', 'out/main/local-service.js', 'out/preload/index.js', 'out/renderer/index.html'].map((p) => join(root, p));
const INPUTS = ['src', 'resources', 'electron.vite.config.ts', 'package.json'].map((p) => join(root, p));

/** After a signal, how long a child has to stop before it is killed: nothing this script started outlives it. */
const STOP_GRACE_MS = 10_000;
/** The child running now (the build, then the app): a signal to this script goes to it. */
let current = null;
let stopSignal = null;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    stopSignal = signal;
    if (!current) process.exit(1);
    current.kill(signal);
    const child = current;
    setTimeout(() => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'), STOP_GRACE_MS).unref();
  });
}

/** Starts a child in the foreground (our stdio); resolves with how it ended. */
function foreground(command, commandArgs, env = process.env) {
  const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit', env });
  current = child;
  return new Promise((resolve) => {
    child.on('error', (e) => resolve({ error: e }));
    child.on('exit', (code, signal) => {
      if (current === child) current = null;
      resolve({ code, signal });
    });
  });
}

async function buildIfStale() {
  // For tests that run the script against the build `npm test` just made.
  if (process.env.TELEPORTER_WATCH_SKIP_BUILD === '1') return;
  const missing = OUTPUTS.some((p) => !existsSync(p));
  const oldestOut = missing ? 0 : Math.min(...OUTPUTS.map((p) => statSync(p).mtimeMs));
  if (!missing && newest(INPUTS) <= oldestOut) return;
  console.log(`Teleporter Watch: ${missing ? 'building' : 'rebuilding'} the app (electron-vite build)...`);
  const r = await foreground(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build']);
  if (stopSignal) process.exit(1);
  if (r.code !== 0) {
    console.error('Teleporter Watch: the build failed; see the errors above, fix them and run npm start again.');
    process.exit(r.code ?? 1);
  }
}

/** Runs the app in the foreground: signals go to it, its exit code becomes ours. */
async function run(command, commandArgs, env = process.env) {
  const r = await foreground(command, commandArgs, env);
  if (r.error) {
    console.error(`Teleporter Watch: could not start ${command}: ${r.error.message}`);
    process.exit(1);
  }
  process.exit(r.code ?? (r.signal ? 1 : 0));
}

const binary = electronBinary();
if (!binary) console.log('Electron is not installed on this machine (ELECTRON_SKIP_BINARY_DOWNLOAD); starting the web host instead');
await buildIfStale();
if (binary) {
  const env = { ...process.env };
  // Set by some tools; it would make Electron run the app as plain Node.
  delete env.ELECTRON_RUN_AS_NODE;
  await run(binary, [root, ...args], env);
} else {
  await run(process.execPath, [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(root, 'src', 'host', 'cli.ts'), ...args]);
}
