import { spawn } from 'node:child_process';
import { SERVICE_CLI, TSX_LOADER } from '../../src/host/paths';

/**
 * The local service's CLI as its own process, as the app starts it. `listening` resolves with its URL
 * (rejects if it exits first), `exited` with its exit code, `out()` is everything it printed.
 */
export function startServiceProcess(args: string[]) {
  // stdin is a pipe the service ignores unless it is started with --exit-with-stdin.
  const child = spawn(process.execPath, ['--import', TSX_LOADER, SERVICE_CLI, '--port', '0', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /listening on (\S+)\n/.exec(out);
      if (m) resolve(m[1]!);
    });
    void exited.then((code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  listening.catch(() => undefined);
  return { child, listening, exited, out: () => out };
}
