/** Where the project's files are, wherever the host is started from (npm, tsx, Playwright). */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const PROJECT_ROOT = resolve(__dirname, '..', '..');
export const RENDERER_OUT_DIR = join(PROJECT_ROOT, 'out', 'renderer');
export const SERVICE_CLI = join(PROJECT_ROOT, 'src', 'local-service', 'cli.ts');
/** tsx's ESM loader as a file URL, so `node --import` finds it from any working directory. */
export const TSX_LOADER = pathToFileURL(join(PROJECT_ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

export function appVersion(): string {
  const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
}
