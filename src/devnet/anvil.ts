/**
 * Anvil (Foundry's EVM node, the binary in @foundry-rs/anvil's platform package) as a real local chain
 * for `npm run devnet` and the tests: on 127.0.0.1 with a free (or given) port and its own EVM chain ID,
 * awaited until it answers, killed after. With `statePath` the chain is saved on stop and loaded on
 * start, so a node can restart mid-scan.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require_ = createRequire(__filename);
/** The package @foundry-rs/anvil installs for this machine (its own postinstall is not needed: the binary is in it). */
const PLATFORM_PACKAGE = `@foundry-rs/anvil-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`;

/** The anvil binary, or an error saying what to install. */
function anvilBinary(): string {
  let dir: string;
  try {
    dir = dirname(require_.resolve(`${PLATFORM_PACKAGE}/package.json`));
  } catch {
    throw new Error(`anvil is not installed for this machine (${PLATFORM_PACKAGE}): run npm install (it comes with the dev dependency @foundry-rs/anvil).`);
  }
  return join(dir, 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
}

export interface AnvilOptions {
  chainId: number;
  /** Default 0 (a free port); a restart reuses the port it had. */
  port?: number;
  /** Save the chain here on stop, load it on start. */
  statePath?: string;
  /** Mine a block every this many seconds (fractions allowed) instead of one per transaction, as real chains do. */
  blockTime?: number;
}

export interface AnvilNode {
  chainId: number;
  port: number;
  url: string;
  wsUrl: string;
  /** Stops gracefully (SIGTERM: anvil writes its state file). */
  stop(): Promise<void>;
  /** kill -9. */
  kill(): Promise<void>;
  /** Starts again on the same port (after stop or kill). */
  restart(): Promise<void>;
}

/** Block states anvil keeps (in memory, none on disk): far more than any reorg a test makes. */
const KEPT_STATES = 256;

const LISTENING = /Listening on 127\.0\.0\.1:(\d+)/;

function launch(o: AnvilOptions, port: number): Promise<{ child: ChildProcess; port: number }> {
  // Past its in-memory limit anvil writes old blocks' states to ~/.foundry/anvil/tmp, and a killed
  // anvil leaves them there: a bench run's 12,000 blocks per chain filled the disk. Nothing here needs
  // states older than a reorg's depth, so only the latest ones are kept, in memory.
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(o.chainId), '--prune-history', String(KEPT_STATES)];
  if (o.statePath) args.push('--state', o.statePath);
  if (o.blockTime) args.push('--block-time', String(o.blockTime));
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`anvil (chain ${o.chainId}) did not start within 20 s:\n${out}`));
    }, 20_000);
    const onData = (chunk: Buffer) => {
      out = (out + chunk.toString()).slice(-8192);
      const m = LISTENING.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve({ child, port: Number(m[1]) });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-8192)));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`anvil (chain ${o.chainId}) exited with ${code} before listening:\n${out}`));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startAnvil(o: AnvilOptions): Promise<AnvilNode> {
  const first = await launch(o, o.port ?? 0);
  let child = first.child;
  const port = first.port;
  const node: AnvilNode = {
    chainId: o.chainId,
    port,
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    async stop() {
      const done = exited(child);
      child.kill('SIGTERM');
      await done;
    },
    async kill() {
      const done = exited(child);
      child.kill('SIGKILL');
      await done;
    },
    async restart() {
      await node.stop();
      ({ child } = await launch(o, port));
    },
  };
  return node;
}
