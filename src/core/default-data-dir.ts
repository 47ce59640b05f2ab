import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** The data folder of the plain-Node shells (web host, headless watcher) unless told otherwise: `$XDG_DATA_HOME/teleporter-watch`, else `~/.local/share/teleporter-watch`. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_DATA_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.local', 'share');
  return join(base, 'teleporter-watch');
}
