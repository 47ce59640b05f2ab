/**
 * The built renderer (out/renderer) the web server serves. Checked, never built here: building is a
 * development step (`npm run build`), and a server's start must not run a build tool.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const rendererBuilt = (dir: string): boolean => existsSync(join(dir, 'index.html'));

/** Returns `dir` when it holds a built renderer; otherwise throws a message saying what to run. */
export function builtRendererDir(dir: string): string {
  if (rendererBuilt(dir)) return dir;
  throw new Error(`The user interface is not built (${join(dir, 'index.html')} is missing). Run \`npm run build\` in the app's folder, then start again.`);
}
