/**
 * Every name the docs, the README and the source comments give exists: the files and folders they
 * name, the docs' links and anchors, and the docs' backticked code names (doc-names.ts). A file
 * moved or a constant renamed fails here until its mentions follow.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, staleNames } from './doc-names';

describe('names in the docs and the comments', () => {
  it('name only files, folders, headings and code that exist', () => {
    const stale = staleNames(repoRoot).map((s) => `${s.file}:${s.line}: ${s.name} (${s.why})`);
    expect(stale).toEqual([]);
  });

  describe('the check', () => {
    const root = mkdtempSync(join(tmpdir(), 'tw-doc-names-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const write = (path: string, text: string) => {
      mkdirSync(join(root, dirname(path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    write('src/core/parts/log.ts', 'export const MAX_PAGES = 1;\nexport function startPart() {}\n');
    write('docs/poller.md', '# Poller\n\n## Late records\n');
    write(
      'docs/architecture.md',
      [
        'The log is `src/core/parts/log.ts` (`parts/log.ts`), its cap `MAX_PAGES`, started by `startPart()`.',
        'Gone: `src/core/parts/gone.ts`, see [poller](poller.md#late-records) and [x](poller.md#early-records).',
        'Renamed: `MAX_OLD_PAGES`, `stopPart()`; [moved](moved.md). It was `src/core/old-name.ts`.',
      ].join('\n'),
    );
    write(
      'src/core/create-core.ts',
      [
        '// The log part (parts/log.ts), the store part (parts/store.ts).',
        'const url = "https://x/src/nothing.ts"; const quote = /[\'"`]/g;',
        '/** Its cap, MAX_PAGES; gone: MAX_GONE_PAGES and `oldPart()`. */',
      ].join('\n'),
    );

    it('reports each name that names nothing, and where', () => {
      const found = staleNames(root).map((s) => `${s.file}:${s.line}: ${s.name}`);
      expect(found).toEqual([
        'docs/architecture.md:2: src/core/parts/gone.ts',
        'docs/architecture.md:2: poller.md#early-records',
        'docs/architecture.md:3: moved.md',
        'docs/architecture.md:3: MAX_OLD_PAGES',
        'docs/architecture.md:3: stopPart()',
        'src/core/create-core.ts:1: parts/store.ts',
        'src/core/create-core.ts:3: oldPart()',
        'src/core/create-core.ts:3: MAX_GONE_PAGES',
      ]);
    });
  });
});
