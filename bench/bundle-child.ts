import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import * as esbuild from 'esbuild';

/**
 * Bundles a bench child (the core or the watcher) into one CommonJS file, as the app ships it, so the
 * child runs in plain Node without a TypeScript loader in its memory. BENCH_FAVOR_MEMORY=0 leaves V8's
 * heap sizing at its default (src/core/memory/favor-memory.ts becomes a no-op), to measure what it saves.
 */
export async function bundleChild(entry: string, outfile: string, external: string[]): Promise<void> {
  const defaultHeap: esbuild.Plugin = {
    name: 'default-heap',
    setup(build) {
      build.onResolve({ filter: /memory\/favor-memory$/ }, () => ({ path: 'favor-memory', namespace: 'default-heap' }));
      build.onLoad({ filter: /.*/, namespace: 'default-heap' }, () => ({ contents: 'export const favorMemoryOverSpeed = () => false;', loader: 'js' }));
    },
  };
  await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    outfile,
    external,
    logLevel: 'error',
    plugins: favorMemory === 'off' ? [defaultHeap] : [],
  });
}

/** Whether this run's child favours memory over speed (reported with the figures). */
export const favorMemory = process.env.BENCH_FAVOR_MEMORY === '0' ? 'off' : 'on';

/**
 * Bundles the bench child `bench/<name>.ts` into `work` and forks it in plain Node (BENCH_CHILD_FLAGS
 * are its Node flags; `env` adds to this process's); resolves once the child says it is up.
 */
export async function startBundledChild(name: string, work: string, external: string[], env: Record<string, string> = {}): Promise<ChildProcess> {
  const childJs = join(work, `${name}.cjs`);
  await bundleChild(join(__dirname, `${name}.ts`), childJs, external);
  const child = fork(childJs, [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: (process.env.BENCH_CHILD_FLAGS ?? '').split(' ').filter(Boolean),
    env: { ...process.env, NODE_PATH: join(__dirname, '..', 'node_modules'), ...env },
  });
  await new Promise<void>((r) => child.once('message', () => r()));
  return child;
}
