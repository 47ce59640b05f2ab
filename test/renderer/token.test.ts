// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { takeLaunchToken } from '../../src/renderer/src/transport/token';
import { WEB_TOKEN_STORAGE_KEY } from '../../src/shared/web-protocol';

describe('launch token', () => {
  it('moves ?token= into sessionStorage and removes it from the address bar, keeping the hash route', () => {
    window.history.replaceState(null, '', '/?token=abc123&x=1#/watchlist');
    expect(takeLaunchToken()).toBe('abc123');
    expect(window.location.search).toBe('?x=1');
    expect(window.location.hash).toBe('#/watchlist');
    expect(window.sessionStorage.getItem(WEB_TOKEN_STORAGE_KEY)).toBe('abc123');
    // A reload of the same tab (no token in the URL any more) still finds it.
    expect(takeLaunchToken()).toBe('abc123');
  });
});
