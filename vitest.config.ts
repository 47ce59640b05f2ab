import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';

/**
 * Files that spend most of their time waiting on real deadlines and real processes (the web server's
 * 10 s and 30 s slow-client limits, Prometheus scrapes, Alertmanager's group waits, a watcher's start and
 * drain, a service's start), measured at 20-50 % of one core. `npm test` runs them in their own
 * one-worker run beside Playwright, so they do not hold one of the two workers of the main run
 * (docs/testing.md).
 */
export const WAITING_FILES = [
  'test/web-server/slow-clients.test.ts',
  'test/headless/fuel-alertmanager.test.ts',
  'test/headless/delivery-console.test.ts',
  'test/headless/watch-signal.test.ts',
  'test/host/redaction.test.ts',
  'test/headless/alertmanager.test.ts',
  'test/headless/last-successful-poll.test.ts',
  'test/headless/prometheus-relayers.test.ts',
  'test/headless/failed-executions-alertmanager.test.ts',
  'test/headless/relayer-silent-alertmanager.test.ts',
  'test/headless/source-down-alertmanager.test.ts',
  'test/headless/prometheus.test.ts',
  'test/headless/demo-config.test.ts',
  'test/local-service/single-writer.test.ts',
  'test/simulator/relayer-personas.test.ts',
];

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
          exclude: ['test/e2e/**', 'node_modules/**', 'test/renderer/**', 'test/core/**', 'test/shared/**', ...WAITING_FILES],
        },
      },
      { extends: true, test: { name: 'waiting', include: WAITING_FILES } },
    ],
  },
});
