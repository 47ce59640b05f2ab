/**
 * `npm run bench:ui`: the UI with 100,000 messages in the monitor's local cache, measured in Chromium
 * through the web host. Prints ONE JSON line:
 * - firstListPaintMs: navigation start → first cache row painted (fresh browser context each run);
 * - keystrokeMs: key down → the filtered list painted, for each key typed into the cache filter
 *   (one key at a time; the result is checked against the core's own count for that text), with the
 *   median split into before-request, request (host + core; coreSearch alone) and after-response.
 * Targets: first paint < 1000 ms, keystroke p95 < 50 ms; exits 1 when one is missed.
 */
import type { Page } from '@playwright/test';
import { loadavg } from 'node:os';
import type { CachePage } from '../src/shared/contract';
import { CACHE_PAGE } from '../src/renderer/src/logic/cache-page';
import { PROBES_JS } from './ui-probes';
import { operatorQueries, startUiStack } from './ui-stack';

const MESSAGES = Number(process.env.BENCH_UI_MESSAGES ?? 100_000);
const PAINT_RUNS = 5;
const TARGET_PAINT_MS = 1000;
const TARGET_KEY_P95_MS = 50;

interface KeyTiming {
  t0: number | null;
  t1: number | null;
  requestStart: number | null;
  responseEnd: number | null;
  bytes: number | null;
}

/** The probes' globals in the page (functions passed to evaluate run there, not in Node; no eval, so the page's CSP holds). */
interface Probes {
  __firstRowPaint: number | null;
  __armKeystroke(): void;
  __keystroke: Promise<KeyTiming>;
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? NaN;
};
const round = (x: number) => Math.round(x * 10) / 10;

async function main(): Promise<void> {
  const stack = await startUiStack('bench-ui', MESSAGES);
  const { service, app, browser, cached, fillSeconds } = stack;
  const searchTotal = async (text: string) => {
    const res = await fetch(`${app.host.origin}/api/invoke/searchCache`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${app.host.token}` },
      body: JSON.stringify({ input: { ...(text.trim() ? { text: text.trim() } : {}), limit: 1 } }),
    });
    return ((await res.json()) as { value: CachePage }).value.total;
  };
  try {
    const paints: number[] = [];
    let page: Page | null = null;
    for (let i = 0; i < PAINT_RUNS; i++) {
      await page?.context().close();
      const context = await browser.newContext({ viewport: { width: 1360, height: 860 } });
      await context.addInitScript({ content: PROBES_JS });
      page = await context.newPage();
      await page.goto(`${app.host.url}#/cache`);
      await page.waitForFunction(() => (globalThis as unknown as Probes).__firstRowPaint !== null, null, { timeout: 30_000 });
      paints.push(await page.evaluate(() => (globalThis as unknown as Probes).__firstRowPaint as number));
    }
    const p = page!;

    const { queries, filter } = await operatorQueries(p, service);
    const latencies: number[] = [];
    const beforeRequest: number[] = [];
    const request: number[] = [];
    const afterResponse: number[] = [];
    const coreSearch: number[] = [];
    const responseBytes: number[] = [];
    let mismatches = 0;
    let timeouts = 0;
    /** Each key with its time and the filter text after it: which keys make the tail. */
    const perKey: { key: string; text: string; ms: number }[] = [];
    const measureKey = async (key: string) => {
      await p.evaluate(() => (globalThis as unknown as Probes).__armKeystroke());
      await p.keyboard.press(key);
      const r = await p.evaluate(() => (globalThis as unknown as Probes).__keystroke);
      if (r.t0 === null || r.t1 === null) timeouts++;
      else {
        latencies.push(r.t1 - r.t0);
        perKey.push({ key, text: '', ms: round(r.t1 - r.t0) });
        if (r.requestStart !== null && r.responseEnd !== null) {
          beforeRequest.push(r.requestStart - r.t0);
          request.push(r.responseEnd - r.requestStart);
          afterResponse.push(r.t1 - r.responseEnd);
          if (r.bytes !== null) responseBytes.push(r.bytes);
        }
      }
      const text = await filter.inputValue();
      if (perKey.length && perKey[perKey.length - 1]!.text === '' && r.t1 !== null) perKey[perKey.length - 1]!.text = text;
      const shown = Number(await p.getByTestId('cache-total').getAttribute('data-total'));
      if (shown !== (await searchTotal(text))) mismatches++;
      // The same search straight in the core (the page size the view asks for), without HTTP or the page:
      // the core's share of `request`.
      const c0 = performance.now();
      await app.core.invoke('searchCache', { ...(text.trim() ? { text: text.trim() } : {}), limit: CACHE_PAGE, offset: 0 });
      coreSearch.push(performance.now() - c0);
      await p.waitForTimeout(120); // a person's pace between keys
    };
    for (const q of queries) {
      for (const ch of q) await measureKey(ch);
      await filter.selectText();
      await measureKey('Backspace');
    }

    const result = {
      bench: 'ui',
      messages: cached,
      fillSeconds: round(fillSeconds),
      firstListPaintMs: { runs: paints.map(round), median: round(percentile(paints, 50)), max: round(Math.max(...paints)) },
      keystrokeMs: {
        count: latencies.length,
        p50: round(percentile(latencies, 50)),
        p95: round(percentile(latencies, 95)),
        max: round(Math.max(...latencies)),
        timeouts,
        wrongTotals: mismatches,
        slowest: [...perKey].sort((a, b) => b.ms - a.ms).slice(0, 4),
        // p50 of each part: key → request sent (debounce), request → response (host + core search), response → painted.
        parts: {
          beforeRequest: round(percentile(beforeRequest, 50)),
          request: round(percentile(request, 50)),
          coreSearch: round(percentile(coreSearch, 50)),
          afterResponse: round(percentile(afterResponse, 50)),
        },
        responseKB: round(percentile(responseBytes, 50) / 1024),
      },
      queries,
      targets: { firstListPaintMs: TARGET_PAINT_MS, keystrokeP95Ms: TARGET_KEY_P95_MS },
      pass: {
        firstListPaint: Math.max(...paints) < TARGET_PAINT_MS,
        keystrokeP95: percentile(latencies, 95) < TARGET_KEY_P95_MS && timeouts === 0 && mismatches === 0,
      },
      loadavg1m: round(loadavg()[0] ?? 0),
    };
    console.log(JSON.stringify(result));
    if (!result.pass.firstListPaint || !result.pass.keystrokeP95) process.exitCode = 1;
  } finally {
    await stack.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
