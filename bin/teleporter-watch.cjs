#!/usr/bin/env node
// The `teleporter-watch` command (and `npm run watch`): runs the bundled watcher, out/headless/cli.js,
// in this very process, so a signal sent to it (systemd, npm, Ctrl+C) reaches the watcher itself.
// In a development checkout (the sources and esbuild present, NODE_ENV not "production") a missing or
// outdated bundle is built first (`npm run build:headless`, about a second); a production start never
// builds: a missing bundle is an error saying what to run.
const { existsSync, readdirSync, statSync } = require('node:fs');
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');
const { allocatorEnv } = require('./allocator-env.cjs');

// glibc reads its settings once, at start: this process replaces itself (same PID, same stdio) with one
// started with them (allocator-env.cjs says why). Without process.execve (Node < 22.15) it runs as is.
const tuned = typeof process.execve === 'function' ? allocatorEnv(process.env) : null;
if (tuned) {
  try {
    process.execve(process.execPath, [process.execPath, ...process.execArgv, __filename, ...process.argv.slice(2)], tuned);
  } catch (e) {
    console.error(`teleporter-watch: could not restart with the allocator settings (${e.message}); running with glibc's defaults.`);
  }
}

const root = join(__dirname, '..');
const bundle = join(root, 'out', 'headless', 'cli.js');
const sources = join(root, 'src');

function development() {
  if (process.env.NODE_ENV === 'production' || !existsSync(join(sources, 'headless', 'cli.ts'))) return false;
  try {
    require.resolve('esbuild', { paths: [root] });
    return true;
  } catch {
    return false;
  }
}

/** Newest modification time (ms) of the files under `dir`. */
function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

if (development() && (!existsSync(bundle) || statSync(bundle).mtimeMs < Math.max(newest(sources), statSync(join(root, 'package.json')).mtimeMs))) {
  console.log(`teleporter-watch: ${existsSync(bundle) ? 'rebuilding' : 'building'} the bundled watcher (npm run build:headless)...`);
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'build-headless.mjs')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('teleporter-watch: the build failed; see the errors above.');
    process.exit(1);
  }
}
if (!existsSync(bundle)) {
  console.error(
    `teleporter-watch: ${bundle} is missing. Build it where the dev dependencies are installed (npm run build:headless) and copy out/headless along.`,
  );
  process.exit(1);
}
require(bundle);
