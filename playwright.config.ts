// End-to-end tests in Debian's Chromium (never `npx playwright install`; see docs/testing.md).
// Every test/e2e/*.spec.ts runs; the web specs start their own stack (test/e2e/fixtures.ts):
// the local service with a fast simulator + the core + the web host, on random ports.
// Two projects: `web` (every spec but the long ones) and `long` (the demo day's, whose alerts take about 6 min
// to fire and resolve, mostly waiting, and the two next longest, trust and first day): `npm test` runs the
// second, two workers, beside the vitest run, so Playwright's first lane ends sooner (scripts/test-all.mjs);
// `npx playwright test` runs both.
import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH_OPTIONS } from './test/e2e/chromium';

/** The specs `npm test` runs beside the vitest run (one worker holds the demo day, the other the rest). */
const LONG_SPECS = ['demo-day.spec.ts', 'trust.spec.ts', 'first-day.spec.ts'];

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '*.spec.ts',
  outputDir: 'test-results/playwright',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  projects: [
    { name: 'web', testIgnore: LONG_SPECS },
    { name: 'long', testMatch: LONG_SPECS },
  ],
  use: {
    viewport: { width: 1360, height: 860 },
    colorScheme: 'light',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: CHROMIUM_LAUNCH_OPTIONS,
  },
});
