/**
 * Where the running watcher finds its files, bundled (out/headless/cli.js, `npm run build:headless`) or
 * from the sources (tsx: `npm run watch:dev`, the tests): the built renderer and how to start the local
 * service. The bundle starts the bundled service (out/headless/local-service.js) with plain node, so a
 * production start never needs tsx or any other dev dependency.
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LocalServiceSpec } from '../core';
import { DEMO_RATE, DEMO_SEED } from '../shared/demo-world';
import pkg from '../../package.json';

/** True in esbuild's bundle (out/headless/cli.js), false under tsx (src/headless/*.ts). */
const BUNDLED = __filename.endsWith('.js');
/** The app's folder: two levels up from out/headless and from src/headless alike. */
const APP_ROOT = resolve(__dirname, '..', '..');
/** `npm run build` writes it; --web only checks it is there (src/web-server/renderer-dir.ts). */
export const RENDERER_DIR = join(APP_ROOT, 'out', 'renderer');
/** Embedded in the bundle at build time. */
export const APP_VERSION: string = pkg.version;

/** The local service with the desktop demo's simulator (its seed and rate: the same world); the core appends `--port 0 --db ...`. */
export function serviceSpawnSpec(seed = DEMO_SEED): LocalServiceSpec {
  const args = ['--rate', String(DEMO_RATE), '--seed', String(seed)];
  if (BUNDLED) return { kind: 'spawn', command: process.execPath, args: [join(__dirname, 'local-service.js'), ...args] };
  const tsx = pathToFileURL(join(APP_ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  return { kind: 'spawn', command: process.execPath, args: ['--import', tsx, join(APP_ROOT, 'src', 'local-service', 'cli.ts'), ...args] };
}
