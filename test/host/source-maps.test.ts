/**
 * No hidden source map is ever served: the web host runs over the real built renderer (out/renderer,
 * `npm test` builds it first; alone: `npx electron-vite build`), and every map the build wrote is
 * asked for under every spelling a path can take (trailing `/`, `/.`, encoded `/` and `.`, double
 * encoding, backslashes, case, dot segments, query strings, fragments), with and without the token,
 * over a raw socket so the bytes reach the server exactly as written.
 */
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchWebApp, type WebApp } from '../../src/host/app';
import { startLocalService, type SimulatedService } from '../../src/local-service';
import { rawGet, sendRaw } from '../support/raw-http';

const rendererDir = resolve(__dirname, '..', '..', 'out', 'renderer');
const assetsDir = join(rendererDir, 'assets');

/** Every way of writing `/assets/<name>` that a path normaliser could turn back into the file. */
function variants(name: string): string[] {
  const dot = name.lastIndexOf('.');
  const stem = name.slice(0, dot); // x.js
  const upper = name.toUpperCase();
  const encodedDots = name.replaceAll('.', '%2e');
  const p = `/assets/${name}`;
  return [
    p,
    `${p}/`,
    `${p}//`,
    `${p}/.`,
    `${p}/./`,
    `${p}/%2e`,
    `${p}/%2E`,
    `${p}%2f`,
    `${p}%2F`,
    `${p}%2f.`,
    `${p}%2f%2e`,
    `${p}%252f`,
    `${p}%5c`,
    `${p}\\`,
    `${p}?`,
    `${p}?x=1`,
    `${p}?token=abc`,
    `${p}#x`,
    `${p};`,
    `${p}%00`,
    `${p}%20`,
    `/assets/${stem}%2emap`,
    `/assets/${stem}%2Emap`,
    `/assets/${stem}%252emap`,
    `/assets/${stem}.ma%70`,
    `/assets/${encodedDots}`,
    `/assets/${upper}`,
    `/assets/${stem}.MAP`,
    `/assets/${stem}.Map`,
    `/ASSETS/${name}`,
    `/assets/./${name}`,
    `/./assets/${name}`,
    `//assets/${name}`,
    `/assets//${name}`,
    `/%2e/assets/${name}`,
    `/assets%2f${name}`,
    `/assets%2F${name}`,
    `/assets%5c${name}`,
    `/assets\\${name}`,
    `/assets/x/../${name}`,
    `/assets/x/%2e%2e/${name}`,
    `/assets/%2e/${name}`,
    `%2fassets%2f${name}`,
  ];
}

let service: SimulatedService;
let app: WebApp;
let base: string;
let maps: string[] = [];

beforeAll(async () => {
  if (!existsSync(join(rendererDir, 'index.html'))) throw new Error('out/renderer is missing: run "npx electron-vite build" first.');
  maps = readdirSync(assetsDir).filter((f) => f.endsWith('.map'));
  base = realpathSync(mkdtempSync(join(tmpdir(), 'tw-maps-')));
  service = await startLocalService({ seed: 7, rate: 0, preload: 0, log: () => {} });
  app = await launchWebApp({
    dataDir: join(base, 'data'),
    rendererDir,
    localService: { kind: 'url', url: service.url },
    keychainService: `teleporter-watch-test-${process.pid}-${Date.now()}`,
    autoPoll: false,
  });
});
afterAll(async () => {
  await app?.close();
  await service?.close();
  if (base) rmSync(base, { recursive: true, force: true });
});

describe('web host: hidden source maps', () => {
  it('the build wrote maps next to its bundles (else this test proves nothing)', () => {
    expect(maps.length).toBeGreaterThan(5);
    // Each map's bundle is served, so a refusal below is about the map, not the folder.
    expect(maps.every((m) => existsSync(join(assetsDir, m.slice(0, -'.map'.length))))).toBe(true);
  });

  it('serves the bundles themselves', async () => {
    const { port } = app.host;
    const bundle = maps[0]!.slice(0, -'.map'.length);
    const r = await sendRaw(port, rawGet(`/assets/${bundle}`, port));
    expect(r.status).toBe(200);
    expect(r.head).toMatch(/content-type: text\/javascript/i);
  });

  it('answers no spelling of any map with its content, token or not', async () => {
    const { port, token } = app.host;
    const served: string[] = [];
    for (const name of maps) {
      for (const target of variants(name)) {
        for (const auth of [[], [`Authorization: Bearer ${token}`]]) {
          const withToken = auth.length ? `${target}${target.includes('?') ? '&' : '?'}token=${token}` : target;
          for (const method of ['GET', 'HEAD']) {
            const bytes = rawGet(withToken, port, auth);
            const r = await sendRaw(port, method === 'GET' ? bytes : Buffer.concat([Buffer.from('HEAD'), bytes.subarray(3)]));
            // A map's body is JSON with "mappings"; any 2xx or 3xx to a map spelling is a leak.
            if (r.status === 0 || (r.status >= 200 && r.status < 400) || r.body.includes('"mappings"')) served.push(`${method} ${withToken} -> ${r.status}`);
          }
        }
      }
    }
    expect(served).toEqual([]);
  });
});
