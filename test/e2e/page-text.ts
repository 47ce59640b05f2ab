/**
 * What the first-day spec reads from the page itself, typed without the DOM library (the node config
 * has none): how far the page scrolls sideways, and every word a person can read on it.
 */
import type { Page } from '@playwright/test';

interface PageElement {
  getAttribute(name: string): string | null;
  innerText: string;
  offsetParent: unknown;
  tagName: string;
}
/** The page's global scope, as much of it as these reads use (evaluated in the page, where globalThis is window). */
interface PageGlobals {
  innerWidth: number;
  document: {
    scrollingElement: { scrollWidth: number } | null;
    body: { innerText: string };
    querySelectorAll(selector: string): ArrayLike<PageElement>;
  };
  navigator: { clipboard: { readText(): Promise<string> } };
}

/** How far the page scrolls sideways past the window (0 or less: it does not). */
export const sidewaysOverflow = (page: Page): Promise<number> =>
  page.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    return (g.document.scrollingElement?.scrollWidth ?? 0) - g.innerWidth;
  });

/**
 * Everything a person reads on the page: the visible text, and the titles and labels shown on hover or read
 * aloud. Not what the page shows as the record's own data, marked `data-raw` (a message's raw JSON): that is
 * the source's words, quoted, not the app's.
 */
export const readableText = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    const quoted = Array.from(g.document.querySelectorAll('[data-raw]')).map((e) => e.innerText);
    const body = quoted.reduce((text, q) => (q ? text.replace(q, '') : text), g.document.body.innerText);
    const hints = Array.from(g.document.querySelectorAll('[title], [aria-label]'))
      .filter((e) => e.offsetParent !== null || e.tagName.toLowerCase() === 'svg')
      .flatMap((e) => [e.getAttribute('title') ?? '', e.getAttribute('aria-label') ?? '']);
    return [body, ...hints].join('\n');
  });

/** The clipboard's text, as the page reads it (the context must grant clipboard-read). */
export const clipboardText = (page: Page): Promise<string> => page.evaluate(() => (globalThis as unknown as PageGlobals).navigator.clipboard.readText());

/** An attribute of each element a locator matches, in order. */
export const attributes = (page: Page, selector: string, name: string): Promise<(string | null)[]> =>
  page.locator(selector).evaluateAll((es, n) => es.map((e) => (e as unknown as PageElement).getAttribute(n)), name);
