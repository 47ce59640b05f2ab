import { describe, expect, it } from 'vitest';
import { isAppUrl, rendererLocation } from '../../src/main/app-url';

describe('renderer location', () => {
  const indexHtml = '/opt/Teleporter Watch/resources/app.asar/out/renderer/index.html';

  it('uses the built page when packaged, even if a dev URL is in the environment', () => {
    const loc = rendererLocation({ isPackaged: true, devUrl: 'http://localhost:5173', indexHtml });
    expect(loc.kind).toBe('file');
    expect(loc.url).toBe('file:///opt/Teleporter%20Watch/resources/app.asar/out/renderer/index.html');
  });

  it('uses the dev server only on loopback', () => {
    expect(rendererLocation({ isPackaged: false, devUrl: 'http://localhost:5173/', indexHtml })).toMatchObject({
      kind: 'dev',
      origin: 'http://localhost:5173',
    });
    expect(rendererLocation({ isPackaged: false, devUrl: 'http://127.0.0.1:5173/', indexHtml }).kind).toBe('dev');
    expect(rendererLocation({ isPackaged: false, devUrl: 'https://evil.example/', indexHtml }).kind).toBe('file');
    expect(rendererLocation({ isPackaged: false, devUrl: 'file:///etc/passwd', indexHtml }).kind).toBe('file');
    expect(rendererLocation({ isPackaged: false, devUrl: 'not a url', indexHtml }).kind).toBe('file');
  });

  it('recognises exactly our page', () => {
    const file = rendererLocation({ isPackaged: true, devUrl: undefined, indexHtml });
    expect(isAppUrl(file.url, file)).toBe(true);
    expect(isAppUrl(`${file.url}#/messages/abc`, file)).toBe(true);
    expect(isAppUrl(`${file.url}?x=1`, file)).toBe(true);
    expect(isAppUrl('file:///opt/Teleporter%20Watch/resources/app.asar/out/renderer/other.html', file)).toBe(false);
    expect(isAppUrl('file:///etc/passwd', file)).toBe(false);
    expect(isAppUrl('https://snowtrace.io/', file)).toBe(false);
    expect(isAppUrl('about:blank', file)).toBe(false);
    expect(isAppUrl('', file)).toBe(false);

    const dev = rendererLocation({ isPackaged: false, devUrl: 'http://localhost:5173', indexHtml });
    expect(isAppUrl('http://localhost:5173/src/main.ts', dev)).toBe(true);
    expect(isAppUrl('http://localhost:5174/', dev)).toBe(false);
    expect(isAppUrl('http://127.0.0.1:5173/', dev)).toBe(false);
  });
});
