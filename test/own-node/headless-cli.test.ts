/**
 * The `teleporter-watch` command with own nodes: a node that is down at start is said on the console
 * with its state and message while the healthy chain is read and /metrics is served (no exit, no
 * restart loop under systemd); a config invalid as text (a bad cb58 ID) still exits 2 with its line.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeConfig } from '../headless/rig';
import { waitFor } from '../support/wait-for';
import { blockchainIdFor, startTestChain, type TestChain } from './chains';
import { chainConfig } from './rig';

const BIN = join(__dirname, '..', '..', 'bin', 'teleporter-watch.cjs');
let a: TestChain;

beforeAll(async () => {
  a = await startTestChain({ chainId: 32401 });
});
afterAll(async () => {
  await a?.node.stop();
});

function run(file: string) {
  const child = spawn(process.execPath, [BIN, '--config', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '', code: null as number | null };
  child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  const exited = new Promise<typeof out>((resolve) => child.on('exit', (code) => resolve({ ...out, code })));
  return { child, out, exited };
}

const config = (chains: unknown[]) => ({
  dataDir: './data',
  dataSource: { ownNodes: { chains, confirmations: 0, pollIntervalMs: 200, requestTimeoutMs: 2_000 } },
  network: 'fuji',
  pollIntervalSeconds: 5,
  metrics: { listen: '127.0.0.1:0' },
  watches: [],
});

describe('teleporter-watch with own nodes', () => {
  it('starts with a node down, says so on the console, serves /metrics, and stops cleanly', async () => {
    const dir = tempDir('tw-own-cli-');
    const gone = { name: 'Gone', rpcUrl: 'http://127.0.0.1:9', blockchainId: blockchainIdFor(32402).cb58, messengers: [a.messenger] };
    const r = run(writeConfig(dir, config([chainConfig(a, { name: 'Alpha' }), gone])));
    try {
      const metricsUrl = await waitFor(() => /metrics at (http:\/\/\S+)/.exec(r.out.stdout)?.[1], 60_000, 'the metrics line');
      await waitFor(() => r.out.stdout.includes('own node Gone (127.0.0.1:9): down: The node cannot be reached'), 30_000, 'the down line');
      const text = await waitFor(
        async () => {
          const t = await (await fetch(metricsUrl)).text();
          return /own_node_state\{chain="Alpha",blockchain_id="[^"]+",state="ok"\} 1/.test(t) ? t : undefined;
        },
        30_000,
        'Alpha ok on /metrics',
      );
      expect(text).toMatch(/own_node_state\{chain="Gone",blockchain_id="[^"]+",state="down"\} 1/);
      expect(r.out.code).toBeNull(); // still running
    } finally {
      r.child.kill('SIGTERM');
    }
    expect((await r.exited).code).toBe(0);
  }, 120_000);

  it('still refuses a config invalid as text with exit 2 and its line', async () => {
    const dir = tempDir('tw-own-cli-');
    const r = await run(writeConfig(dir, config([chainConfig(a, { blockchainId: 'not-cb58' })]))).exited;
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/line \d+: dataSource\.ownNodes\.chains\[0\]\.blockchainId: Blockchain ID must be a cb58/);
  }, 60_000);
});
