/**
 * The security scan (scripts/security-scan.mjs) against small built apps: it must fail on an insecure
 * window, on a preload that loads npm packages, and honour an eng-disable annotation found through
 * the bundle's source map, with its reason.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { transformWithEsbuild } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';

const root = resolve(__dirname, '..', '..');
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const GUARDS = `
app.on('web-contents-created', (_e, contents) => {
  contents.on('will-navigate', (e) => e.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
});
session.defaultSession.setPermissionRequestHandler((_w, _p, cb) => cb(false));
`;

// A page with a strict CSP, as the real renderer has.
const PAGE = `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"></head><body><script src="./app.js"></script></body></html>`;

/** Writes an out/ folder: each .js compiled from TypeScript by esbuild with a hidden map, like the real build. */
async function app(files: Record<string, string>): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), 'tw-scan-fixture-'));
  dirs.push(out);
  mkdirSync(join(out, 'renderer'));
  writeFileSync(join(out, 'renderer', 'index.html'), PAGE);
  for (const [file, source] of Object.entries(files)) {
    // out/main/index.js.map -> <fixture>/src/main/index.ts, as the real maps point into src/.
    const srcName = `../src/${file.replace(/\.js$/, '.ts')}`;
    const r = await transformWithEsbuild(source, srcName, { loader: 'ts', format: 'esm', sourcemap: 'external', sourcefile: srcName });
    mkdirSync(join(out, file, '..'), { recursive: true });
    writeFileSync(join(out, file), r.code);
    writeFileSync(join(out, `${file}.map`), JSON.stringify({ ...r.map, sources: [srcName], sourcesContent: [source] }));
  }
  return out;
}

const scan = (input: string) =>
  spawnSync(process.execPath, [join(root, 'scripts', 'security-scan.mjs'), '--input', input], { cwd: root, encoding: 'utf8', timeout: 180_000 });

describe('security scan', () => {
  it('never downloads its tool: without it, a scan fails saying how to install it once', async () => {
    // A checkout of just the script, so its own node_modules/.cache has no tool (the real one is shared).
    const bare = mkdtempSync(join(tmpdir(), 'tw-scan-bare-'));
    dirs.push(bare);
    mkdirSync(join(bare, 'scripts'));
    copyFileSync(join(root, 'scripts', 'security-scan.mjs'), join(bare, 'scripts', 'security-scan.mjs'));
    const out = await app({ 'main/index.js': `import { app, session } from 'electron';\n${GUARDS}` });
    const r = spawnSync(process.execPath, [join(bare, 'scripts', 'security-scan.mjs'), '--input', out], { cwd: bare, encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('is not installed; run "node scripts/security-scan.mjs --install" once');
    expect(existsSync(join(bare, 'node_modules'))).toBe(false);
  });

  it('fails on a window without context isolation and sandbox', { timeout: 200_000 }, async () => {
    const out = await app({
      'main/index.js': `import { app, BrowserWindow, session } from 'electron';\n${GUARDS}\nexport const w = () => new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false } });\n`,
    });
    const r = scan(out);
    expect(r.status).toBe(1);
    // Located in the bundle and, through the map, in the source.
    expect(r.stderr).toMatch(/HIGH CONTEXT_ISOLATION_JS_CHECK main\/index\.js:\d+:\d+ \(source \S*src\/main\/index\.ts:9\)/);
    expect(r.stderr).toContain('MEDIUM SANDBOX_JS_CHECK');
    expect(r.stderr).toContain('FAILED');
  });

  it('fails when navigation and permissions are left open', async () => {
    const r = scan(
      await app({
        'main/index.js': `import { BrowserWindow } from 'electron';\nexport const w = () => new BrowserWindow({ webPreferences: { sandbox: true } });\n`,
      }),
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('HIGH LIMIT_NAVIGATION_GLOBAL_CHECK');
    expect(r.stderr).toContain('MEDIUM PERMISSION_REQUEST_HANDLER_GLOBAL_CHECK');
  });

  it('fails on a preload that requires an npm package (the sandbox cannot load it)', async () => {
    const r = scan(
      await app({
        'main/index.js': `import { app, session } from 'electron';\n${GUARDS}`,
        'preload/index.js': `import { contextBridge } from 'electron';\nimport { z } from 'zod';\ncontextBridge.exposeInMainWorld('x', { ok: () => z.string().parse('a') });\n`,
      }),
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/preload\/index\.js requires "zod": a sandboxed preload may load only "electron"/);
  });

  it('honours eng-disable next to the source line, with its reason, and only for that check', { timeout: 90_000 }, async () => {
    const body = (annotation: string) =>
      `import { app, session, shell } from 'electron';\n${GUARDS}\nexport function open(url: string) {\n  if (!url.startsWith('https://snowtrace.io/')) return;\n${annotation}  void shell.openExternal(url);\n}\n`;
    const lineOf = (source: string) => source.split('\n').findIndex((l) => l.includes('shell.openExternal(url)')) + 1;

    const open = scan(await app({ 'main/index.js': body('') }));
    expect(open.status).toBe(1);
    expect(open.stderr).toMatch(new RegExp(`MEDIUM OPEN_EXTERNAL_JS_CHECK main/index\\.js:\\d+:\\d+ \\(source \\S*src/main/index\\.ts:${lineOf(body(''))}\\)`));

    const reason = '  // eng-disable OPEN_EXTERNAL_JS_CHECK: only snowtrace.io links reach this line\n';
    const annotated = scan(await app({ 'main/index.js': body(reason) }));
    expect(annotated.stdout).toMatch(
      new RegExp(`suppressed: MEDIUM OPEN_EXTERNAL_JS_CHECK at \\S*src/main/index\\.ts:${lineOf(body(reason))} — only snowtrace\\.io links reach this line\n`),
    );
    expect(annotated.status).toBe(0);
    expect(annotated.stdout).toMatch(/security scan: \d+ checks, no HIGH or MEDIUM findings .*1 suppressed/);

    // An annotation for another check suppresses nothing.
    const wrong = scan(await app({ 'main/index.js': body('  // eng-disable NODE_INTEGRATION_JS_CHECK: wrong check\n') }));
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain('OPEN_EXTERNAL_JS_CHECK');
  });
});
