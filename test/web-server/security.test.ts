import { describe, expect, it } from 'vitest';
import { bearerToken, cspFromIndexHtml, hostAllowed, newLaunchToken, originAllowed, tokenMatches } from '../../src/web-server/security';

describe('launch token', () => {
  it('is 256 random bits, URL-safe, different every launch', () => {
    const a = newLaunchToken();
    const b = newLaunchToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
  });

  it('matches only the exact token', () => {
    const t = newLaunchToken();
    expect(tokenMatches(t, t)).toBe(true);
    expect(tokenMatches(t, t.slice(0, -1))).toBe(false);
    expect(tokenMatches(t, `${t}x`)).toBe(false);
    expect(tokenMatches(t, '')).toBe(false);
    expect(tokenMatches(t, null)).toBe(false);
    expect(tokenMatches(t, undefined)).toBe(false);
  });

  it('reads a Bearer header', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeNull();
    expect(bearerToken('Bearer')).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
  });
});

describe('Host and Origin checks', () => {
  it('accepts only loopback names with this port', () => {
    expect(hostAllowed('127.0.0.1:4000', 4000)).toBe(true);
    expect(hostAllowed('localhost:4000', 4000)).toBe(true);
    expect(hostAllowed('LOCALHOST:4000', 4000)).toBe(true);
    expect(hostAllowed('127.0.0.1:4001', 4000)).toBe(false);
    expect(hostAllowed('127.0.0.1', 4000)).toBe(false);
    expect(hostAllowed('evil.example:4000', 4000)).toBe(false);
    expect(hostAllowed('[::1]:4000', 4000)).toBe(false);
    expect(hostAllowed(undefined, 4000)).toBe(false);
  });

  it('accepts no Origin or exactly the same origin', () => {
    expect(originAllowed(undefined, '127.0.0.1:4000')).toBe(true);
    expect(originAllowed('http://127.0.0.1:4000', '127.0.0.1:4000')).toBe(true);
    expect(originAllowed('http://localhost:4000', '127.0.0.1:4000')).toBe(false);
    expect(originAllowed('https://127.0.0.1:4000', '127.0.0.1:4000')).toBe(false);
    expect(originAllowed('null', '127.0.0.1:4000')).toBe(false);
    expect(originAllowed('http://evil.example', '127.0.0.1:4000')).toBe(false);
  });
});

describe('content security policy', () => {
  it('copies the page meta policy and forbids framing', () => {
    const html = `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'" />`;
    expect(cspFromIndexHtml(html)).toBe("default-src 'self'; script-src 'self'; frame-ancestors 'none'");
  });

  it('falls back to the default policy without a meta tag', () => {
    const csp = cspFromIndexHtml(null);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
  });
});

describe('content security policy of the real page', () => {
  it('reads the renderer index.html policy whatever the attribute order', () => {
    const html = `<meta content="default-src 'self'; object-src 'none'" http-equiv="Content-Security-Policy">`;
    expect(cspFromIndexHtml(html)).toBe("default-src 'self'; object-src 'none'; frame-ancestors 'none'");
  });
});
