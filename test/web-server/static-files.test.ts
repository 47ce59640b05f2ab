import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveStaticFile } from '../../src/web-server/static-files';

let base: string;
let root: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'tw-static-')));
  root = join(base, 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html>');
  writeFileSync(join(root, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(join(root, 'assets', 'style.css'), 'body{}');
  writeFileSync(join(base, 'secret.txt'), 'do not serve');
  symlinkSync(join(base, 'secret.txt'), join(root, 'link.txt'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('resolveStaticFile', () => {
  it('maps / to index.html and assets with their content types', async () => {
    expect(await resolveStaticFile(root, '/')).toMatchObject({ path: join(root, 'index.html'), contentType: 'text/html; charset=utf-8', immutable: false });
    expect(await resolveStaticFile(root, '/assets/index-abc.js')).toMatchObject({ contentType: 'text/javascript; charset=utf-8', immutable: true, size: 14 });
    expect(await resolveStaticFile(root, '/assets/style.css')).toMatchObject({ contentType: 'text/css; charset=utf-8' });
  });

  it('refuses every way out of the root', async () => {
    for (const p of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/assets/..%5c..%5csecret.txt',
      '/link.txt',
      '/%00',
      '/%E0%A4%A',
      '//etc/passwd',
    ]) {
      expect(await resolveStaticFile(root, p), p).toBeNull();
    }
  });

  it('does not serve folders or missing files', async () => {
    expect(await resolveStaticFile(root, '/assets')).toBeNull();
    expect(await resolveStaticFile(root, '/assets/')).toBeNull();
    expect(await resolveStaticFile(root, '/nope.js')).toBeNull();
  });
});
