#!/usr/bin/env node
// `npm test`: every suite: lint (layer rule and import check included), format check (prettier) and typecheck beside the build,
// the Electron security scan and the end-to-end tests (Playwright + Chromium), then unit and integration
// tests (vitest).
// It runs itself inside a private D-Bus session with an unlocked gnome-keyring so the keychain tests
// use a real Secret Service, and ends with one plain line: "tests: N passed, N failed, N skipped".
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

// The suite runs on the Node that Electron 39 ships (22), where the stores' node:sqlite exists. npm
// scripts find the node@22 dev dependency (node_modules/.bin/node) first on PATH; run through npm.
if (Number(process.versions.node.split('.')[0]) < 22 || !isBuiltin('node:sqlite')) {
  console.error(
    `tests need Node 22 or newer with node:sqlite; this is Node ${process.versions.node} (${process.execPath}). Run "npm test" after "npm install", which installs node@22.`,
  );
  process.exit(1);
}
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

if (!process.env.TW_TEST_SESSION) {
  if (has('dbus-run-session') && has('gnome-keyring-daemon')) {
    const k = mkdtempSync(join(tmpdir(), 'tw-keyring-'));
    const env = {
      ...process.env,
      TW_TEST_SESSION: 'keyring',
      XDG_DATA_HOME: join(k, 'data'),
      XDG_CACHE_HOME: join(k, 'cache'),
      XDG_CONFIG_HOME: join(k, 'config'),
    };
    const inner = `echo -n test | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; exec node scripts/test-all.mjs ${process.argv.slice(2).join(' ')}`;
    const r = spawnSync('dbus-run-session', ['--', 'sh', '-c', inner], { cwd: root, env, stdio: 'inherit' });
    rmSync(k, { recursive: true, force: true });
    process.exit(r.status ?? 1);
  }
  console.log(
    'note: dbus-run-session or gnome-keyring-daemon is missing; keychain tests will skip (install: apt-get install gnome-keyring dbus libsecret-tools).',
  );
  process.env.TW_TEST_SESSION = 'plain';
}

const results = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
const outDir = mkdtempSync(join(tmpdir(), 'tw-results-'));

function record(name, status, started, counted, ended = Date.now()) {
  const secs = ((ended - started) / 1000).toFixed(1);
  if (counted) {
    results.passed += counted.passed;
    results.failed += counted.failed;
    results.skipped += counted.skipped;
  } else if (status === 0) results.passed += 1;
  else results.failed += 1;
  if (status !== 0) failures.push(name);
  console.log(`=== ${name}: ${status === 0 ? 'ok' : 'FAILED'} in ${secs} s`);
}

// A step whose output goes straight to the terminal (spawned, not spawnSync: a held step may run beside it).
function liveStep(name, cmd, args, { countFrom } = {}) {
  const started = Date.now();
  console.log(`\n=== ${name}: ${[cmd, ...args].join(' ')}`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env: process.env });
    child.on('close', (status) => {
      record(name, status ?? 1, started, countFrom ? countFrom() : null);
      resolve();
    });
  });
}

// A step whose output is held and printed whole when it ends (or, with `printAfter`, once that promise
// has settled too), so that two lanes' output does not interleave.
function heldStep(name, cmd, args, { countFrom, printAfter, env } = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('close', async (status) => {
      const ended = Date.now();
      await printAfter;
      console.log(`\n=== ${name}: ${[cmd, ...args].join(' ')}`);
      process.stdout.write(Buffer.concat(out));
      record(name, status ?? 1, started, countFrom ? countFrom() : null, ended);
      resolve();
    });
  });
}

async function lane(steps) {
  for (const s of steps) await heldStep(...s);
}

const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);

const scan = existsSync(join(root, 'scripts/security-scan.mjs'));
// Playwright's result file counted.
const playwrightCount = (file) => () => {
  const j = readJson(file);
  if (!j?.stats) return null;
  return { passed: j.stats.expected + (j.stats.flaky ?? 0), failed: j.stats.unexpected, skipped: j.stats.skipped };
};
const pwJson = join(outDir, 'playwright.json');
const longJson = join(outDir, 'playwright-long.json');
const hasEndToEnd = existsSync(join(root, 'playwright.config.ts'));
const endToEnd = hasEndToEnd
  ? [
      [
        'end-to-end tests',
        'npx',
        ['playwright', 'test', '--project=web', '--reporter=list,json'],
        { countFrom: playwrightCount(pwJson), env: { PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson } },
      ],
    ]
  : [];

// Vitest's result file counted: a file that fails to load has no failed test of its own, so it counts once.
const vitestCount = (file) => () => {
  const j = readJson(file);
  if (!j) return null;
  const brokenFiles = (j.testResults ?? []).filter((f) => f.status === 'failed' && (f.assertionResults ?? []).every((a) => a.status !== 'failed')).length;
  return { passed: j.numPassedTests, failed: j.numFailedTests + brokenFiles, skipped: j.numPendingTests + j.numTodoTests };
};
const vitestArgs = (json, ...rest) => ['vitest', 'run', ...rest, '--reporter=default', '--reporter=json', `--outputFile.json=${json}`];

// Two lanes, one per core. The static checks are CPU-bound and single-threaded each; Playwright (one
// worker: one Chromium and one stack) needs only the build and waits on its pages much of the time. So
// the build goes first, then Playwright, beside lint, format and typecheck in the other lane. Playwright's
// lane is the longer one (about 350 s against 275 s in the clean-clone run), so the security scan (it
// needs only the build; its tool is installed once, idempotently, before any test, so no test downloads
// it) ends the static checks' lane instead of delaying Playwright. Then, in that lane, the vitest files
// that mostly wait (project `waiting`, one worker, about a third of a core: vitest.config.ts) run beside
// Playwright and on into the main vitest run (two workers, both cores), which starts when Playwright and
// the static checks are done. Their output is printed after the main run's.
const built = heldStep('build', 'npx', ['electron-vite', 'build']);
const staticChecks = lane([
  ...(scan ? [['security scan tool', 'node', ['scripts/security-scan.mjs', '--install']]] : []),
  ['lint', 'npx', ['eslint', '.', '--max-warnings=0']],
  // The import check: chains of imports, dynamic and type-only ones included (.dependency-cruiser.cjs).
  ['import check', 'npx', ['depcruise', 'src', '--config', '.dependency-cruiser.cjs']],
  // Through npm so that a missing prettier fails plainly instead of npx fetching one.
  ['format', 'npm', ['run', '-s', 'format:check']],
  ['typecheck', 'npm', ['run', '-s', 'typecheck']],
])
  .then(() => built)
  .then(() => lane(scan ? [['security scan', 'node', ['scripts/security-scan.mjs']]] : []));
const endToEndDone = built.then(() => lane(endToEnd));
const vitestJson = join(outDir, 'vitest.json');
const mainRunStarts = Promise.all([staticChecks, endToEndDone]);
const mainRun = mainRunStarts.then(() =>
  liveStep('unit and integration tests', 'npx', vitestArgs(vitestJson, '--project', 'renderer', '--project', 'core', '--project', 'isolated'), {
    countFrom: vitestCount(vitestJson),
  }),
);
// The long specs (project `long`, playwright.config.ts): the demo day's mostly waits for its alerts, about
// 6 min of them, in one worker; trust and first day (about 3 min together) in the other. Beside the main
// vitest run, from when that starts, so that Playwright's first lane (and the main run's start) ends sooner.
const longSpecs = hasEndToEnd
  ? mainRunStarts.then(() =>
      heldStep('end-to-end: the long specs', 'npx', ['playwright', 'test', '--project=long', '--workers=2', '--reporter=list,json'], {
        countFrom: playwrightCount(longJson),
        env: { PLAYWRIGHT_JSON_OUTPUT_NAME: longJson },
        printAfter: mainRun,
      }),
    )
  : Promise.resolve();
const waitingJson = join(outDir, 'vitest-waiting.json');
const waiting = staticChecks.then(() =>
  heldStep('waiting tests', 'npx', vitestArgs(waitingJson, '--project', 'waiting', '--maxWorkers=1'), {
    countFrom: vitestCount(waitingJson),
    printAfter: mainRun,
  }),
);
await Promise.all([mainRun, waiting, longSpecs]);

rmSync(outDir, { recursive: true, force: true });
if (failures.length) console.log(`\nfailed steps: ${failures.join(', ')}`);
console.log(`\ntests: ${results.passed} passed, ${results.failed} failed, ${results.skipped} skipped`);
process.exit(failures.length ? 1 : 0);
