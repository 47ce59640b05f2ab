/**
 * What the UI benchmark and its profiling aid both run: the local service with `messages` simulated
 * messages, the monitor's cache filled from it, the app through the web host, and Chromium.
 */
import { chromium, type Browser, type Locator, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchWebApp } from '../src/host/app';
import { ensureRendererBuilt } from '../src/host/renderer-build';
import { startLocalService, type SimulatedService } from '../src/local-service';
import { CHROMIUM_LAUNCH_OPTIONS } from '../test/e2e/chromium';
import { fillMonitorCache } from './ui-cache-fill';

export interface UiStack {
  service: SimulatedService;
  app: Awaited<ReturnType<typeof launchWebApp>>;
  browser: Browser;
  /** Messages in the monitor's cache. */
  cached: ReturnType<typeof fillMonitorCache>;
  fillSeconds: number;
  close(): Promise<void>;
}

export async function startUiStack(name: string, messages: number): Promise<UiStack> {
  const rendererDir = await ensureRendererBuilt(() => undefined);
  const base = mkdtempSync(join(tmpdir(), `tw-${name}-`));
  const t0 = Date.now();
  const service = await startLocalService({ seed: 42, rate: 0, preload: messages, log: () => {} });
  const cached = fillMonitorCache(join(base, 'data'), service);
  const fillSeconds = (Date.now() - t0) / 1000;
  const app = await launchWebApp({
    dataDir: join(base, 'data'),
    rendererDir,
    localService: { kind: 'url', url: service.url },
    keychainService: `teleporter-watch-${name}-${process.pid}`,
    autoPoll: false,
  });
  const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
  return {
    service,
    app,
    browser,
    cached,
    fillSeconds,
    async close() {
      await browser.close();
      await app.close();
      await service.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/**
 * What an operator types into the cache filter (part of a sender address, a chain name, part of a
 * message ID), taken from the first row the page shows; the filter is focused, ready for the keys.
 */
export async function operatorQueries(p: Page, service: SimulatedService): Promise<{ queries: string[]; filter: Locator }> {
  const sample = (await p.getByTestId('cache-row').first().getAttribute('data-message-id'))!;
  const from = service.store.get(sample)?.from;
  const sender = typeof from === 'string' ? from : '0x';
  const filter = p.getByTestId('cache-filter');
  await filter.click();
  return { queries: [sender.slice(0, 10).toLowerCase(), 'dispatch', sample.slice(0, 10)], filter };
}
