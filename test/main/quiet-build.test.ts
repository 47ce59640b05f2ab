/**
 * The build a newcomer's first `npm start` runs says nothing they cannot act on: no renderer chunk over
 * Vite's 500 kB warning (electron.vite.config.ts splits the libraries with manualChunks). Read from the
 * real build in out/ (`npm test` builds first; alone: `npx electron-vite build`).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const assets = resolve(__dirname, '..', '..', 'out', 'renderer', 'assets');
/** Vite's chunkSizeWarningLimit: 500 kB, as its report counts them. */
const LIMIT_BYTES = 500 * 1000;

describe('the renderer build', () => {
  it('has no chunk over 500 kB, the libraries in chunks of their own', () => {
    expect(existsSync(assets), `${assets} is missing: run npx electron-vite build`).toBe(true);
    const chunks = readdirSync(assets).filter((f) => f.endsWith('.js'));
    const sizes = Object.fromEntries(chunks.map((f) => [f, statSync(join(assets, f)).size]));
    expect(Object.entries(sizes).filter(([, n]) => n > LIMIT_BYTES)).toEqual([]);
    for (const name of ['vue', 'naive-ui', 'naive-ui-controls', 'echarts', 'zrender', 'zod'])
      expect(
        chunks.some((f) => f.startsWith(`${name}-`)),
        name,
      ).toBe(true);
  });
});
