import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';

export default defineConfig({
  plugins: [vue()],
  test: {
    exclude: ['test/e2e/**', 'node_modules/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: keep parallelism modest so timing-sensitive HTTP tests stay stable.
    maxWorkers: 2,
    fileParallelism: true,
    projects: [
      {
        extends: true,
        // The renderer's files share one module graph per worker instead of importing Vue, naive-ui and
        // the core anew for each file: half the CPU for the same tests (docs/testing.md). Each file
        // still makes its own Pinia, core and service.
        test: { name: 'renderer', include: ['test/renderer/**/*.test.ts'], isolate: false },
      },
      {
        extends: true,
        // The same for the core's files: none mocks a module, fakes timers or changes process.env, and each
        // makes its own stores, services and clock. 81 files: 269 s of CPU instead of 390 s (docs/testing.md).
        test: { name: 'core', include: ['test/core/**/*.test.ts', 'test/shared/**/*.test.ts'], isolate: false },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'node_modules/**', 'test/renderer/**', 'test/core/**', 'test/shared/**'],
        },
      },
    ],
  },
});
