import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { desktopCsp, installCspHeader } from '../../src/main/csp';
import { FakeSession } from './fake-electron';

const directives = (csp: string) =>
  new Map(
    csp.split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name ?? '', values];
    }),
  );

describe('desktop CSP', () => {
  it('allows only our own scripts, no inline or eval, and no network for the built page', () => {
    const d = directives(desktopCsp());
    expect(d.get('default-src')).toEqual(["'none'"]);
    expect(d.get('script-src')).toEqual(["'self'"]);
    expect(d.get('connect-src')).toEqual(["'self'"]);
    expect(d.get('object-src')).toEqual(["'none'"]);
    expect(d.get('frame-src')).toEqual(["'none'"]);
    expect(d.get('base-uri')).toEqual(["'none'"]);
    expect(d.get('form-action')).toEqual(["'none'"]);
    expect(d.get('frame-ancestors')).toEqual(["'none'"]);
    expect(desktopCsp()).not.toMatch(/unsafe-eval|\*|https?:/);
  });

  it('lets the dev server in only in dev mode, by its exact origin', () => {
    const d = directives(desktopCsp({ devOrigin: 'http://localhost:5173' }));
    expect(d.get('script-src')).toEqual(["'self'", 'http://localhost:5173']);
    expect(d.get('connect-src')).toEqual(["'self'", 'http://localhost:5173', 'ws://localhost:5173']);
  });

  it('is set on every response, replacing whatever CSP the response carried', () => {
    const session = new FakeSession();
    installCspHeader(session as never, desktopCsp());
    const out = session.respond({ 'content-security-policy': ['default-src *'], 'Content-Type': ['text/html'] });
    expect(out).toEqual({ 'Content-Type': ['text/html'], 'Content-Security-Policy': [desktopCsp()] });
    expect(session.respond({})).toEqual({ 'Content-Security-Policy': [desktopCsp()] });
  });

  it('fits the page: no inline script in the renderer HTML (script-src has no unsafe-inline)', () => {
    const html = readFileSync('src/renderer/index.html', 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\bsrc=/);
      expect(body?.trim()).toBe('');
    }
  });
});

describe('the page meta CSP (src/renderer/index.html, desktop and web host alike)', () => {
  it('lets the page connect to its own origin only, never to any port of 127.0.0.1', () => {
    const html = readFileSync('src/renderer/index.html', 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(directives(meta).get('connect-src')).toEqual(["'self'"]);
    expect(meta).not.toMatch(/:\*/);
  });
});
