/** Runs a benchmark script as the user would (`tsx bench/x.bench.ts`) and returns its exit code and JSON line. */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(__dirname, '../..');

export interface BenchRun {
  code: number | null;
  /** The first stdout line that starts with '{' (each bench prints its figures as one JSON line). */
  result: Record<string, unknown> | null;
  stderr: string;
}

export function runBench(file: string, env: Record<string, string>): Promise<BenchRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', fail);
    child.once('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      done({ code, result: line ? (JSON.parse(line) as Record<string, unknown>) : null, stderr: err });
    });
  });
}
