import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import vue from '@vitejs/plugin-vue';
import type { Rollup } from 'vite';

/**
 * Hidden source maps (no reference in the bundle, left out of the packages): the security scan maps
 * each finding in out/ back to its source line, where a provably safe one may carry an
 * `eng-disable CHECK_ID` comment with its reason (esbuild drops comments from the bundles).
 */
const sourcemap = 'hidden' as const;

/**
 * Rollup's INVALID_ANNOTATION: a dependency (zod, @scure/base) has a `#__PURE__` comment where Rollup
 * cannot use it, so Rollup drops the comment and says so. Nothing to act on here: only that warning,
 * and only for files under node_modules, is left unsaid; every other warning is printed as before.
 */
const onwarn = (warning: Rollup.RollupLog, warn: (w: Rollup.RollupLog) => void): void => {
  if (warning.code === 'INVALID_ANNOTATION' && (warning.id ?? '').includes('/node_modules/')) return;
  warn(warning);
};

/**
 * The renderer's libraries in chunks of their own, each under Vite's 500 kB warning: the page loads
 * what it did before (echarts and zrender still only with the Charts view), in more files that
 * cache apart from the app's own code.
 */
const LIBRARY_CHUNKS: [RegExp, string][] = [
  [/[\\/]node_modules[\\/]zrender[\\/]/, 'zrender'],
  [/[\\/]node_modules[\\/](echarts|vue-echarts)[\\/]/, 'echarts'],
  // naive-ui alone is over 500 kB: the code of its tables and form controls apart from the rest (their
  // styles stay with the rest: the dark theme imports every component's, and a chunk cycle would follow).
  [
    /[\\/]node_modules[\\/]naive-ui[\\/]es[\\/](data-table|pagination|ellipsis|dropdown|popselect|select|auto-complete|input-number|checkbox|radio|descriptions|popconfirm)[\\/]src[\\/]/,
    'naive-ui-controls',
  ],
  [/[\\/]node_modules[\\/]naive-ui[\\/]/, 'naive-ui'],
  [/[\\/]node_modules[\\/](@vue|vue|pinia|vue-router)[\\/]/, 'vue'],
  [/[\\/]node_modules[\\/]zod[\\/]/, 'zod'],
];
const manualChunks = (id: string): string | undefined => LIBRARY_CHUNKS.find(([re]) => re.test(id))?.[1];

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      sourcemap,
      rollupOptions: {
        // node:sqlite is a Node built-in (Node 22; Electron 39 ships it) that exists only with its
        // prefix, so Node's builtin list (which the bundler externalizes) does not name it.
        external: ['node:sqlite'],
        onwarn,
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          // The local service, run by the Electron binary as Node (ELECTRON_RUN_AS_NODE).
          'local-service': resolve(__dirname, 'src/local-service/cli.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      sourcemap,
      // A sandboxed preload must be CommonJS.
      rollupOptions: { input: { index: resolve(__dirname, 'src/preload/index.ts') }, output: { format: 'cjs' }, onwarn },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    base: './',
    plugins: [vue()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      sourcemap,
      // The page's script is parsed on every open: minified, first paint comes sooner.
      minify: 'esbuild',
      rollupOptions: { input: resolve(__dirname, 'src/renderer/index.html'), onwarn, output: { manualChunks } },
    },
  },
});
