import { join } from 'node:path';
import * as esbuild from 'esbuild';

/**
 * Bundles a bench child (the core or the watcher) into one CommonJS file, as the app ships it, so the
 * child runs in plain Node without a TypeScript loader in its memory. BENCH_NO_COMPACTOR=1 swaps the
 * heap compactor for a stand-in that never collects (bench/no-heap-compactor.ts).
 */
export async function bundleChild(entry: string, outfile: string, external: string[]): Promise<void> {
  const noCompactor: esbuild.Plugin = {
    name: 'no-heap-compactor',
    setup(build) {
      build.onResolve({ filter: /memory\/heap-compactor$/ }, () => ({ path: join(__dirname, 'no-heap-compactor.ts') }));
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
    plugins: process.env.BENCH_NO_COMPACTOR === '1' ? [noCompactor] : [],
  });
}

/** Whether this run's child has the heap compactor (reported with the figures). */
export const heapCompactor = process.env.BENCH_NO_COMPACTOR === '1' ? 'off' : 'on';
