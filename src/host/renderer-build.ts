/**
 * `npm run start:web` is a development command: on a fresh checkout the renderer is not built yet, so
 * build it once (electron-vite builds all three bundles in a few seconds) rather than fail. The
 * headless watcher never builds (src/web-server/renderer-dir.ts).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { rendererBuilt } from '../web-server/renderer-dir';
import { PROJECT_ROOT, RENDERER_OUT_DIR } from './paths';

/** Resolves once out/renderer exists; rejects with a message saying what to run by hand. */
export async function ensureRendererBuilt(log: (line: string) => void = console.log): Promise<string> {
  if (rendererBuilt(RENDERER_OUT_DIR)) return RENDERER_OUT_DIR;
  log('Teleporter Watch: building the user interface (first run, electron-vite build)...');
  const bin = join(PROJECT_ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [bin, 'build'], { cwd: PROJECT_ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', () => resolve(null));
    child.on('exit', (c) => resolve(c));
  });
  if (code !== 0 || !rendererBuilt(RENDERER_OUT_DIR)) {
    throw new Error(`Could not build the user interface (out/renderer is missing). Run "npm run build" in ${PROJECT_ROOT} and try again.`);
  }
  return RENDERER_OUT_DIR;
}
