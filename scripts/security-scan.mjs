#!/usr/bin/env node
// The Electron security scan of the built app (`npm test` runs it after the build):
// 1. @doyensec/electronegativity 1.10.3 over out/, failing on any HIGH or MEDIUM finding. The tool
//    pins TypeScript 4 and crashes inside our dependency tree (docs/testing.md), so it lives in its own
//    folder, node_modules/.cache/electronegativity, installed there from the npm registry once by
//    `--install` (.ci/run and scripts/test-all.mjs run it before any test; a scan never downloads).
//    It runs through its own runner (scripts/electronegativity-run.cjs): its CSV writer races.
//    It runs with scripts/offline-guard.cjs preloaded: its translation and release-list downloads
//    fail at once and no traffic leaves 127.0.0.1. The release-list check is skipped (it needs
//    the internet); the Electron version is pinned in package.json instead.
// 2. The sandboxed preload may require nothing but `electron` (a sandboxed preload cannot load
//    npm packages; a stray import would break the bridge at run time).
//
// usage: node scripts/security-scan.mjs [--input <dir>]   (default: out/)
//        node scripts/security-scan.mjs --install          (installs the tool if missing; idempotent)
// A finding that is provably safe is suppressed next to its code with `/* eng-disable CHECK_ID */`
// and a reason, never here. esbuild drops comments from the bundles, so the scan follows each
// finding through the bundle's hidden source map (electron.vite.config.ts) to its source line and
// honours the annotation on that line or the line above it.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const TOOL = '@doyensec/electronegativity';
const TOOL_VERSION = '1.10.3';
// Reads the bundles' source maps; installed beside the tool, not in the project.
const MAPPER = 'source-map-js';
const MAPPER_VERSION = '1.2.1';
// Checks that need the internet; everything else runs.
const OFFLINE_EXCLUDED = ['AvailableSecurityFixesGlobalCheck'];
const FAILING = new Set(['HIGH', 'MEDIUM']);

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const args = process.argv.slice(2);
const inputIdx = args.indexOf('--input');
const outDir = resolve(inputIdx >= 0 && args[inputIdx + 1] ? args[inputIdx + 1] : join(root, 'out'));
// The Electron app's own folders. out/headless (the headless watcher's bundle, plain Node on a server)
// is not Electron code: the tool's checks do not apply to it, and it cannot parse it.
const ELECTRON_DIRS = ['main', 'preload', 'renderer'];
const cacheDir = join(root, 'node_modules', '.cache', 'electronegativity');
const toolPkg = join(cacheDir, 'node_modules', ...TOOL.split('/'), 'package.json');
const mapperPkg = join(cacheDir, 'node_modules', MAPPER, 'package.json');

/** `dir` itself when it holds only the app's folders, else a copy of just those (with their maps). */
function electronOnly(dir) {
  if (readdirSync(dir).every((n) => ELECTRON_DIRS.includes(n))) return dir;
  const stage = mkdtempSync(join(tmpdir(), 'tw-security-scan-'));
  for (const n of ELECTRON_DIRS) if (existsSync(join(dir, n))) cpSync(join(dir, n), join(stage, n), { recursive: true });
  process.on('exit', () => rmSync(stage, { recursive: true, force: true }));
  return stage;
}

const say = (line) => console.log(`security scan: ${line}`);
function fail(line) {
  console.error(`security scan: ${line}`);
  process.exit(1);
}

const installed = (pkg, version) => existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).version === version;

const toolReady = () => installed(toolPkg, TOOL_VERSION) && installed(mapperPkg, MAPPER_VERSION);

function installTool() {
  if (toolReady()) return;
  say(`installing ${TOOL}@${TOOL_VERSION} and ${MAPPER}@${MAPPER_VERSION} into ${relative(root, cacheDir)} (once; npm registry only)`);
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(
    join(cacheDir, 'package.json'),
    JSON.stringify(
      {
        name: 'electronegativity-runner',
        private: true,
        description: 'Kept apart from the project (docs/testing.md)',
        dependencies: { [TOOL]: TOOL_VERSION, [MAPPER]: MAPPER_VERSION },
      },
      null,
      2,
    ),
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['install', '--no-fund', '--no-audit', '--no-package-lock', '--ignore-scripts', '--loglevel=error'], {
    cwd: cacheDir,
    stdio: 'inherit',
  });
  if (r.status !== 0 || !installed(toolPkg, TOOL_VERSION) || !installed(mapperPkg, MAPPER_VERSION))
    fail(`could not install ${TOOL}@${TOOL_VERSION} (npm exited ${r.status}); check access to the npm registry.`);
}

function electronVersion() {
  try {
    return createRequire(join(root, 'package.json'))('electron/package.json').version;
  } catch {
    return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies.electron.replace(/^[^\d]*/, '');
  }
}

function runElectronegativity() {
  const work = mkdtempSync(join(tmpdir(), 'tw-scan-'));
  const report = join(work, 'report.json');
  const toolDir = join(cacheDir, 'node_modules', ...TOOL.split('/'));
  const version = electronVersion();
  const r = spawnSync(
    process.execPath,
    [
      '--require',
      join(root, 'scripts', 'offline-guard.cjs'),
      join(root, 'scripts', 'electronegativity-run.cjs'),
      toolDir,
      input,
      version,
      report,
      OFFLINE_EXCLUDED.join(','),
    ],
    { cwd: root, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } },
  );
  const text = existsSync(report) ? readFileSync(report, 'utf8') : null;
  rmSync(work, { recursive: true, force: true });
  if (r.status !== 0 || text === null) {
    process.stderr.write(r.stdout ?? '');
    process.stderr.write(r.stderr ?? '');
    fail(`electronegativity did not finish (exit ${r.status}).`);
  }
  const parsed = JSON.parse(text);
  if (!(parsed.checks.global > 0 && parsed.checks.atomic > 0)) fail('electronegativity ran no checks; the scan would prove nothing.');
  return { version, ...parsed };
}

// electronegativity's own annotation syntax (its util/exceptions.js), read from the source line.
const ENG_DISABLE = /(?:\/\*|\/\/)[ \t]*eng-disable[ \t]+([\w \t]+)(.*)$/;

/**
 * Where a finding comes from: bundle line:column through the hidden source map to the source file
 * and line. Null when the file has no map (HTML, or a bundle built without maps).
 */
function originOf(finding, consumers) {
  const m = /^(\d+):(\d+)$/.exec(String(finding.location));
  if (!m || !finding.filename || finding.filename === 'N/A') return null;
  const mapFile = join(input, `${finding.filename}.map`);
  if (!existsSync(mapFile)) return null;
  if (!consumers.has(mapFile)) consumers.set(mapFile, new SourceMapConsumer(JSON.parse(readFileSync(mapFile, 'utf8'))));
  const consumer = consumers.get(mapFile);
  const pos = consumer.originalPositionFor({ line: Number(m[1]), column: Number(m[2]), bias: SourceMapConsumer.GREATEST_LOWER_BOUND });
  if (!pos.source || !pos.line) return null;
  const content = consumer.sourceContentFor(pos.source, true);
  const abs = resolve(dirname(mapFile), pos.source);
  const lines = (content ?? (existsSync(abs) ? readFileSync(abs, 'utf8') : '')).split('\n');
  return { file: relative(root, abs), line: pos.line, text: lines[pos.line - 1] ?? '', above: lines[pos.line - 2] ?? '' };
}

/** The reason given by an eng-disable annotation for this check on the finding's source line, or null. */
function suppression(finding, origin) {
  if (!origin) return null;
  for (const text of [origin.text, origin.above]) {
    const m = ENG_DISABLE.exec(text);
    if (!m) continue;
    const ids = m[1]
      .trim()
      .split(/[ \t,]+/)
      .map((x) => x.toUpperCase());
    if (ids.includes(String(finding.issue).toUpperCase()))
      return (
        (m[2] ?? '')
          .replace(/\*\/\s*$/, '')
          .replace(/^[\s:—-]+/, '')
          .trim() || '(no reason given)'
      );
  }
  return null;
}

const jsFiles = (dir) =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
        d.isDirectory() ? jsFiles(join(dir, d.name)) : /\.(c|m)?js$/.test(d.name) ? [join(dir, d.name)] : [],
      )
    : [];

/** Modules a bundle loads at run time: require("x") and import ... from "x". */
function requiredModules(file) {
  const text = readFileSync(file, 'utf8');
  const mods = new Set();
  for (const m of text.matchAll(/\brequire\(\s*["'`]([^"'`]+)["'`]\s*\)|\bfrom\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g))
    mods.add(m[1] ?? m[2] ?? m[3]);
  return [...mods];
}

function checkPreload() {
  const files = jsFiles(join(input, 'preload'));
  if (files.length === 0) return [];
  return files.flatMap((f) =>
    requiredModules(f)
      .filter((m) => m !== 'electron')
      .map((m) => `${relative(root, f)} requires "${m}": a sandboxed preload may load only "electron"; bundle it or move the code to main.`),
  );
}

if (args.includes('--install')) {
  installTool();
  say(`${TOOL}@${TOOL_VERSION} is installed in ${relative(root, cacheDir)}`);
  process.exit(0);
}
if (!existsSync(outDir)) fail(`${relative(root, outDir) || outDir} does not exist; run "npm run build" first.`);
if (!toolReady()) fail(`${TOOL}@${TOOL_VERSION} is not installed; run "node scripts/security-scan.mjs --install" once (.ci/run and npm test do).`);
const input = electronOnly(outDir);
const started = Date.now();
const { version, findings, errors, checks } = runElectronegativity();
const { SourceMapConsumer } = createRequire(join(cacheDir, 'package.json'))(MAPPER);
const consumers = new Map();
const failing = findings.filter((f) => FAILING.has(String(f.severity).toUpperCase()));
const notes = findings.filter((f) => !FAILING.has(String(f.severity).toUpperCase()));
const bad = [];
for (const f of failing) {
  const origin = originOf(f, consumers);
  const reason = suppression(f, origin);
  if (reason) console.log(`suppressed: ${f.severity} ${f.issue} at ${origin.file}:${origin.line} — ${reason}`);
  else bad.push({ ...f, origin });
}
const show = (f) =>
  `  ${f.severity} ${f.issue} ${f.filename}:${f.location}${f.origin ? ` (source ${f.origin.file}:${f.origin.line})` : ''} — ${f.description} (${f.url})` +
  (f.sample && f.sample !== 'N/A' ? `\n      ${String(f.sample).trim().slice(0, 200)}` : '');

for (const f of notes) console.log(`note (not failing): ${show(f).trim()}`);
// A bundle the tool cannot parse is a bundle it did not check.
const unreadable = errors.filter((e) => !e.tolerable).map((e) => `${e.file}: electronegativity could not parse it (${e.message}), so it was not checked.`);
for (const u of unreadable) console.error(`security scan: ${u}`);
const preloadProblems = checkPreload();
for (const p of preloadProblems) console.error(`security scan: ${p}`);
if (bad.length) {
  console.error(
    `security scan: ${bad.length} HIGH/MEDIUM finding(s) in ${relative(root, outDir) || outDir} (electronegativity ${TOOL_VERSION}, Electron ${version}):`,
  );
  for (const f of bad) console.error(show(f));
  console.error('security scan: fix each finding, or, only where it is provably safe, add `/* eng-disable CHECK_ID: reason */` on its source line.');
}
const secs = ((Date.now() - started) / 1000).toFixed(1);
if (bad.length || preloadProblems.length || unreadable.length) fail(`FAILED in ${secs} s`);
say(
  `${checks.atomic + checks.global} checks, no HIGH or MEDIUM findings (${notes.length} low/informational noted, ${failing.length} suppressed) in ${relative(root, outDir) || outDir}, Electron ${version}; preload requires only electron; ${secs} s`,
);
