import { describe, expect, it } from 'vitest';
import { mainWindowOptions } from '../../src/main/window-options';

describe('main window options', () => {
  const opts = mainWindowOptions({ preloadPath: '/app/out/preload/index.js', iconPath: '/app/resources/icon.png' });

  it('locks the page down as the Electron security checklist asks', () => {
    expect(opts.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
    });
    expect(opts.webPreferences).not.toHaveProperty('enableBlinkFeatures');
    expect(opts.webPreferences).not.toHaveProperty('additionalArguments');
  });

  it('loads the CommonJS preload and stays hidden until the page is ready', () => {
    expect(opts.webPreferences?.preload).toBe('/app/out/preload/index.js');
    expect(opts.show).toBe(false);
    expect(opts.icon).toBe('/app/resources/icon.png');
  });

  it('gives every window the same preferences (no caller can loosen them by omission)', () => {
    const bare = mainWindowOptions({ preloadPath: '/p.js' });
    expect({ ...bare.webPreferences, preload: undefined }).toEqual({ ...opts.webPreferences, preload: undefined });
    expect(bare).not.toHaveProperty('icon');
  });
});
