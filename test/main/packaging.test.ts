import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '..', '..');
const req = createRequire(resolve(root, 'package.json'));
// electron-builder's own loader and validator (app-builder-lib is what the CLI runs).
const yaml = req('js-yaml') as { load(text: string): unknown };
const { validateConfiguration } = req('app-builder-lib/out/util/config/config') as { validateConfiguration: (c: unknown, log: unknown) => Promise<void> };
const { DebugLogger } = req('builder-util') as { DebugLogger: new () => unknown };
// The glob matcher electron-builder applies `files` and `asarUnpack` with.
const { minimatch } = createRequire(req.resolve('app-builder-lib/package.json'))('minimatch') as {
  minimatch: (path: string, pattern: string, o?: object) => boolean;
};

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
    await expect(validateConfiguration({ ...config, linux: { target: 'AppImage', bogus: 1 } }, new DebugLogger())).rejects.toThrow(
      /Invalid configuration object/,
    );
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

  it('takes every built runtime file into the package, and no source map', () => {
    const built = walk(resolve(root, 'out'), root);
    if (!built.length) throw new Error('out/ is empty: run "npx electron-vite build" first.');
    const runtime = [...built, ...walk(resolve(root, 'resources'), root), 'package.json'];
    // What the main bundle loads at run time: its entry, the local service, the preload and the page.
    for (const f of [
      'out/main/index.js',
      'out/main/local-service.js',
      'out/preload/index.js',
      'out/renderer/index.html',
      'resources/icon.png',
      'resources/tray.png',
    ]) {
      expect(runtime).toContain(f);
    }
    for (const f of runtime) expect(packaged(f), f).toBe(!f.endsWith('.map'));
  });

  it('unpacks every native binary of the production dependencies from the asar, and nothing needs an ABI-specific build', () => {
    const prod = spawnSync('npm', ['ls', '--omit=dev', '--parseable', '--all'], { cwd: root, encoding: 'utf8' })
      .stdout.split('\n')
      .filter((d) => d && resolve(d) !== root);
    const natives = prod.flatMap((dir) => walk(dir, root).filter((f) => f.endsWith('.node')));
    // @napi-rs/keyring's prebuilt N-API binary for this platform (ABI-stable: loads in Electron as it is).
    expect(natives.some((f) => /^node_modules\/@napi-rs\/keyring-[^/]+\/keyring\.[^/]+\.node$/.test(f))).toBe(true);
    for (const f of natives)
      expect(
        config.asarUnpack.some((p) => minimatch(f, p, { dot: true })),
        f,
      ).toBe(true);
    const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(pkg.dependencies)).not.toContain('better-sqlite3');
    expect(prod.some((d) => /node_modules\/better-sqlite3$/.test(d))).toBe(false);
  });

  it('packages for this OS where Electron is installed (skips with the reason elsewhere)', (ctx) => {
    const electron = electronBinary();
    if (!electron) {
      console.log(
        "packaging.test.ts: electron-builder run skipped: the Electron binary is not installed on this machine (ELECTRON_SKIP_BINARY_DOWNLOAD), and packaging needs Electron's download",
      );
      return ctx.skip();
    }
    const outDir = mkdtempSync(join(tmpdir(), 'tw-dist-'));
    try {
      const r = spawnSync('npx', ['electron-builder', '--dir', '--publish', 'never', `-c.directories.output=${outDir}`], { cwd: root, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const files = walk(outDir);
      expect(files.some((f) => /app\.asar$/.test(f))).toBe(true);
      expect(files.some((f) => /app\.asar\.unpacked\/node_modules\/@napi-rs\/keyring-[^/]+\/keyring\.[^/]+\.node$/.test(f))).toBe(true);
      expect(files.some((f) => /app\.asar\.unpacked\/resources\/tray\.png$/.test(f))).toBe(true);
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  }, 600_000);

  it('has the icons: 512x512 for the app, 32 and 64 px for the tray', () => {
    for (const p of [config.linux.icon, config.mac.icon, config.win.icon]) expect(pngSize(p)).toEqual([512, 512]);
    expect(pngSize('resources/tray.png')).toEqual([32, 32]);
    expect(pngSize('resources/tray@2x.png')).toEqual([64, 64]);
  });

  it('uses the same app ID for Windows notifications as the package', () => {
    expect(readFileSync(resolve(root, 'src/main/index.ts'), 'utf8')).toContain(`app.setAppUserModelId('${config.appId}')`);
  });
});

/** Files under `dir`, relative to `base` (default: `dir`), with forward slashes. */
function walk(dir: string, base = dir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(base, join(e.parentPath, e.name)).split(sep).join('/'));
}

/** Whether electron-builder's `files` list takes this path (the last matching pattern wins, `!` excludes). */
function packaged(file: string): boolean {
  let taken = false;
  for (const p of config.files) {
    if (p.startsWith('!')) {
      if (minimatch(file, p.slice(1), { dot: true })) taken = false;
    } else if (minimatch(file, p, { dot: true })) taken = true;
  }
  return taken;
}

/** The Electron binary, when `npm install` could download it; null otherwise. */
function electronBinary(): string | null {
  try {
    const p = req('electron') as unknown;
    return typeof p === 'string' && existsSync(p) ? p : null;
  } catch {
    return null;
  }
}
