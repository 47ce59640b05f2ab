import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '..', '..');
const req = createRequire(resolve(root, 'package.json'));
// electron-builder's own loader and validator (app-builder-lib is what the CLI runs).
const yaml = req('js-yaml') as { load(text: string): unknown };
const { validateConfiguration } = req('app-builder-lib/out/util/config/config') as { validateConfiguration(c: unknown, log: unknown): Promise<void> };
const { DebugLogger } = req('builder-util') as { DebugLogger: new () => unknown };

interface BuilderConfig {
  appId: string;
  files: string[];
  asarUnpack: string[];
  linux: { target: string[]; icon: string };
  mac: { target: string[]; icon: string };
  win: { target: string[]; icon: string };
}
const config = yaml.load(readFileSync(resolve(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig;

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): [number, number] {
  const b = readFileSync(resolve(root, file));
  expect(b.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(b.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

describe('packaging', () => {
  it('is a configuration electron-builder accepts', async () => {
    await expect(validateConfiguration(config, new DebugLogger())).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...config, linux: { target: 'AppImage', bogus: 1 } }, new DebugLogger())).rejects.toThrow(/Invalid configuration object/);
  });

  it('builds AppImage and deb, dmg, and nsis', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
  });

  it('ships the build without source maps, unpacks the native modules and icons', () => {
    expect(config.files).toEqual(expect.arrayContaining(['out/**/*', '!out/**/*.map', 'package.json']));
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['resources/**', '**/node_modules/@napi-rs/keyring*/**']));
    expect(JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')).main).toBe('./out/main/index.js');
  });

  it('has the icons: 512x512 for the app, 32 and 64 px for the tray', () => {
    for (const p of [config.linux.icon, config.mac.icon, config.win.icon]) expect(pngSize(p)).toEqual([512, 512]);
    expect(pngSize('resources/tray.png')).toEqual([32, 32]);
    expect(pngSize('resources/tray@2x.png')).toEqual([64, 64]);
  });

  it('uses the same app ID for Windows notifications as the package', () => {
    expect(readFileSync(resolve(root, 'src/main/index.ts'), 'utf8')).toContain(`app.setAppUserModelId('${config.appId}')`);
  });
});
