import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import vue from '@vitejs/plugin-vue';

/**
 * Hidden source maps (no reference in the bundle, left out of the packages): the security scan maps
 * each finding in out/ back to its source line, where a provably safe one may carry an
 * `eng-disable CHECK_ID` comment with its reason (esbuild drops comments from the bundles).
 */
const sourcemap = 'hidden' as const;

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      sourcemap,
      rollupOptions: {
        // node:sqlite is a Node built-in (Node 22; Electron 39 ships it) that exists only with its
        // prefix, so Node's builtin list (which the bundler externalizes) does not name it.
        external: ['node:sqlite'],
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          // The local teleporter service, run by the Electron binary as Node (ELECTRON_RUN_AS_NODE).
          'local-data-api': resolve(__dirname, 'src/local-data-api/cli.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      sourcemap,
      // A sandboxed preload must be CommonJS.
      rollupOptions: { input: { index: resolve(__dirname, 'src/preload/index.ts') }, output: { format: 'cjs' } },
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
      rollupOptions: { input: resolve(__dirname, 'src/renderer/index.html') },
    },
  },
});
