import { describe, expect, it } from 'vitest';
import { guardNavigation } from '../../src/main/navigation-guards';
import { FakeWebContents } from './fake-electron';

const APP = 'file:///app/out/renderer/index.html';

function guarded() {
  const contents = new FakeWebContents();
  const opened: string[] = [];
  const blocked: string[] = [];
  guardNavigation(contents as never, {
    isAppUrl: (u) => u.startsWith(APP),
    openLink: (u) => opened.push(u),
    onBlocked: (what, url) => blocked.push(`${what} ${url}`),
  });
  return { contents, opened, blocked };
}

describe('navigation guards', () => {
  it('lets the page reload itself', () => {
    const { contents, opened } = guarded();
    expect(contents.fire('will-navigate', `${APP}#/settings`).defaultPrevented).toBe(false);
    expect(opened).toEqual([]);
  });

  it('cancels navigation anywhere else', () => {
    const { contents, opened, blocked } = guarded();
    for (const url of ['https://evil.example/', 'file:///etc/passwd', 'http://snowtrace.io/tx/1', 'javascript:alert(1)']) {
      expect(contents.fire('will-navigate', url).defaultPrevented).toBe(true);
    }
    expect(opened).toEqual([]);
    expect(blocked).toHaveLength(4);
  });

  it('hands an allow-listed https explorer link to the browser instead of navigating', () => {
    const { contents, opened } = guarded();
    const url = 'https://subnets.avax.network/c-chain/tx/0xabc';
    expect(contents.fire('will-navigate', url).defaultPrevented).toBe(true);
    expect(opened).toEqual([url]);
  });

  it('cancels redirects away from the page', () => {
    const { contents, opened } = guarded();
    expect(contents.fire('will-redirect', 'https://snowtrace.io/').defaultPrevented).toBe(true);
    expect(contents.fire('will-redirect', APP).defaultPrevented).toBe(false);
    expect(opened).toEqual([]);
  });

  it('never opens a window; explorer links go to the browser, the rest nowhere', () => {
    const { contents, opened, blocked } = guarded();
    const handler = contents.windowOpenHandler!;
    expect(handler({ url: 'https://snowtrace.io/address/0x1' })).toEqual({ action: 'deny' });
    expect(handler({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(handler({ url: 'https://user:pw@snowtrace.io/' })).toEqual({ action: 'deny' });
    expect(handler({ url: APP })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://snowtrace.io/address/0x1']);
    expect(blocked).toEqual(['window-open https://evil.example/', 'window-open https://user:pw@snowtrace.io/', `window-open ${APP}`]);
  });

  it('refuses webviews', () => {
    const { contents } = guarded();
    expect(contents.fire('will-attach-webview', {}, { src: 'https://evil.example/' }).defaultPrevented).toBe(true);
  });
});
