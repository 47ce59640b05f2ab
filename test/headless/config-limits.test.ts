/**
 * Every config problem is refused the same way by the real `teleporter-watch` command: exit 2, a line
 * where one exists, in fixed memory (the command runs with a 96 MB heap: a file that needed more would
 * crash it instead of exiting 2). And `--check` runs the very key-file checks of the start.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, openSync, closeSync, ftruncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_ALIASES, MAX_PRINTED_PROBLEMS } from '../../src/headless/config-limits';
import { tempDir } from './rig';

const BIN = join(__dirname, '..', '..', 'bin', 'teleporter-watch.cjs');
const ADDR = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const child = spawn(process.execPath, ['--max-old-space-size=96', BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Run = { code: null, stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ ...out, code })));
}

const configFile = (dir: string, text: string, name = 'c.yaml'): string => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

describe('config limits: exit 2 with a line, in fixed memory', () => {
  it('an alias bomb and thousands of aliases are refused at the first alias past the limit', async () => {
    const dir = tempDir('tw-limits-');
    // The "billion laughs": each level nine aliases of the one before.
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++)
      levels.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    const bomb = await run(['--config', configFile(dir, `${levels.join('\n')}\nwatches: *j\n`), '--check']);
    expect(bomb.code).toBe(2);
    // Level b holds aliases 1–9, c 10–18, d 19–27: the limit is passed on line 4.
    expect(bomb.stderr).toMatch(new RegExp(`line 4: more than ${MAX_ALIASES} aliases`));

    // 5,000 watches sharing one feed through aliases.
    const many = ['feeds:', '  - &f { name: one, filter: { network: mainnet } }', 'watches:'];
    for (let i = 0; i < 5000; i++) many.push(`  - *f`);
    const aliases = await run(['--config', configFile(dir, many.join('\n') + '\n'), '--check']);
    expect(aliases.code).toBe(2);
    expect(aliases.stderr).toMatch(new RegExp(`line ${4 + MAX_ALIASES}: more than ${MAX_ALIASES} aliases`)); // one alias a line from line 4
    expect(aliases.stderr).not.toMatch(/Excessive alias count|resource exhaustion/);
  }, 60_000);

  it('deep nesting says so with its line, never "Maximum call stack size exceeded"', async () => {
    const dir = tempDir('tw-limits-');
    const flow = await run(['--config', configFile(dir, `network: mainnet\nwatches: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`), '--check']);
    expect(flow.code).toBe(2);
    expect(flow.stderr).toMatch(/line 2: nested more than 64 levels deep/);
    const block = await run(['--config', configFile(dir, `watches:\n${'- '.repeat(50_000)}x\n`), '--check']);
    expect(block.code).toBe(2);
    expect(block.stderr).toMatch(/line 2: nested more than 64 levels deep/);
    const indented = Array.from({ length: 5000 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n');
    const deep = await run(['--config', configFile(dir, `${indented}\n`), '--check']);
    expect(deep.code).toBe(2);
    expect(deep.stderr).toMatch(/line \d+: nested more than 64 levels deep/);
    for (const r of [flow, block, deep]) expect(r.stderr).not.toMatch(/call stack/i);
  }, 60_000);

  it('150,000 bad entries: exit 2, the first problems with their lines and a count of the rest, within a 96 MB heap', async () => {
    const dir = tempDir('tw-limits-');
    const lines = ['watches:'];
    for (let i = 0; i < 150_000; i++) lines.push(`  - { address: "0x${i.toString(16).padStart(40, '0')}x" }`);
    const r = await run(['--config', configFile(dir, lines.join('\n') + '\n'), '--check']);
    expect(r.code).toBe(2);
    const printed = r.stderr.split('\n').filter((l) => /^ {2}line \d+:/.test(l));
    expect(printed).toHaveLength(MAX_PRINTED_PROBLEMS);
    expect(printed[0]).toMatch(/^ {2}line 1: watches: at most 100000 entries \(this file has 150000\)/);
    expect(printed[1]).toMatch(/^ {2}line 2: watches\[0\]\.address: /);
    expect(r.stderr).toMatch(/has 150001 problems:/);
    expect(r.stderr).toMatch(new RegExp(`… and ${150_001 - MAX_PRINTED_PROBLEMS} more`));
  }, 120_000);

  it('a file past the size limit is refused before it is read; an empty file is an error', async () => {
    const dir = tempDir('tw-limits-');
    const big = join(dir, 'big.yaml');
    const fd = openSync(big, 'w');
    ftruncateSync(fd, 1024 * 1024 * 1024); // 1 GB, sparse: reading it would need the memory
    closeSync(fd);
    const huge = await run(['--config', big, '--check']);
    expect(huge.code).toBe(2);
    expect(huge.stderr).toMatch(/the config file is 1024\.0 MB; at most 16 MB is read/);
    for (const text of ['', '\n\n', '# only a comment\n']) {
      const empty = await run(['--config', configFile(dir, text, 'empty.yaml'), '--check']);
      expect(empty.code, JSON.stringify(text)).toBe(2);
      expect(empty.stderr).toMatch(/the config file is empty/);
    }
    const defaults = await run(['--config', configFile(dir, '{}\n', 'defaults.yaml'), '--check']);
    expect(defaults.code).toBe(0);
  }, 60_000);
});

describe('--check runs the key-file checks of the start', () => {
  it('refuses every key file the start refuses, with the same sentence (exit 2 for --check, 1 for the start)', async () => {
    const dir = tempDir('tw-keyfile-');
    const cases: { name: string; make: (path: string) => void }[] = [
      { name: 'mode 644', make: (p) => (writeFileSync(p, 'k-1234567890abcdef'), chmodSync(p, 0o644)) },
      { name: 'mode 640', make: (p) => (writeFileSync(p, 'k-1234567890abcdef'), chmodSync(p, 0o640)) },
      { name: 'mode 604', make: (p) => (writeFileSync(p, 'k-1234567890abcdef'), chmodSync(p, 0o604)) },
      { name: 'a directory', make: (p) => mkdirSync(p, { mode: 0o700 }) },
      { name: 'empty', make: (p) => (writeFileSync(p, ''), chmodSync(p, 0o600)) },
      {
        name: '50 MB',
        make: (p) => {
          const fd = openSync(p, 'w', 0o600);
          ftruncateSync(fd, 50 * 1024 * 1024);
          closeSync(fd);
        },
      },
      { name: 'missing', make: () => undefined },
    ];
    // Each case in its own files, so all of them run at once (each command is mostly Node starting up).
    const runs = await Promise.all(
      cases.map(async (c, i) => {
        const key = join(dir, `key-${i}`);
        c.make(key);
        // dataSource pointing nowhere reachable: the start must fail on the key before it connects.
        const file = configFile(dir, `dataSource: http://127.0.0.1:9\napiKey: { file: key-${i} }\nwatches:\n  - address: "${ADDR}"\n`, `c-${i}.yaml`);
        const [check, start] = await Promise.all([run(['--config', file, '--check']), run(['--config', file])]);
        return { name: c.name, check, start };
      }),
    );
    for (const { name, check, start } of runs) {
      expect(check.code, `${name}: --check`).toBe(2);
      expect(start.code, `${name}: start`).toBe(1);
      const sentence = (r: Run) => r.stderr.trim().split('\n').at(-1);
      expect(sentence(check), name).toMatch(/API key file/);
      expect(sentence(check), name).toBe(sentence(start));
    }
  }, 120_000);

  it('passes a key file the start accepts', async () => {
    const dir = tempDir('tw-keyfile-');
    writeFileSync(join(dir, 'key'), 'k-1234567890abcdef\n', { mode: 0o600 });
    const r = await run(['--config', configFile(dir, `dataSource: http://127.0.0.1:9\napiKey: { file: key }\n`), '--check']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/is valid/);
  }, 30_000);
});
