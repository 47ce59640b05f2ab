/** Real Prometheus and Alertmanager (Debian's packages) for the headless tests, on 127.0.0.1 with temp folders. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../support/wait-for';

export const PROMETHEUS = process.env.PROMETHEUS_BIN ?? '/usr/bin/prometheus';
export const PROMTOOL = process.env.PROMTOOL_BIN ?? '/usr/bin/promtool';
export const ALERTMANAGER = process.env.ALERTMANAGER_BIN ?? '/usr/bin/prometheus-alertmanager';

/** Why a test using `bins` must skip (printed), or null when they are all there. */
export function missing(...bins: string[]): string | null {
  const absent = bins.filter((b) => !existsSync(b));
  if (!absent.length) return null;
  const reason = `skipped: ${absent.join(', ')} not installed (apt-get install prometheus prometheus-alertmanager)`;
  console.warn(reason);
  return reason;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createNetServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface Engine {
  url: string;
  port: number;
  proc: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

async function startEngine(bin: string, args: string[], port: number, ready: string): Promise<Engine> {
  let out = '';
  const proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => proc.exitCode === null && (await fetch(`${url}${ready}`)).ok, 30_000, `${bin} to be ready: ${out.slice(-500)}`);
  return {
    url,
    port,
    proc,
    output: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

export async function startPrometheus(config: string, opts: { port?: number } = {}): Promise<Engine> {
  const dir = mkdtempSync(join(tmpdir(), 'tw-prom-'));
  const file = join(dir, 'prometheus.yml');
  writeFileSync(file, config);
  const port = opts.port ?? (await freePort());
  return startEngine(
    PROMETHEUS,
    [`--config.file=${file}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
    port,
    '/-/ready',
  );
}

export async function startAlertmanager(config: string, opts: { port?: number } = {}): Promise<Engine> {
  const dir = mkdtempSync(join(tmpdir(), 'tw-am-'));
  const file = join(dir, 'alertmanager.yml');
  writeFileSync(file, config);
  const port = opts.port ?? (await freePort());
  return startEngine(
    ALERTMANAGER,
    [`--config.file=${file}`, `--storage.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--cluster.listen-address='],
    port,
    '/-/ready',
  );
}
