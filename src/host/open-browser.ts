/** Opens the printed URL in the user's browser; failing that, the printed line is enough. */
import { spawn } from 'node:child_process';

export function openBrowser(url: string, onFail: (message: string) => void): void {
  const [cmd, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => onFail(`Could not start ${cmd}; open the URL above in your browser.`));
    child.on('exit', (code) => {
      if (code) onFail(`${cmd} exited with ${code}; open the URL above in your browser.`);
    });
    child.unref();
  } catch {
    onFail('Could not open a browser; open the URL above yourself.');
  }
}
