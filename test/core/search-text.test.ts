/**
 * Search text is data, never query syntax: any string up to the contract's limit (NUL, quotes, FTS5
 * operators, unicode) returns results or an empty list from the core's cache search, and what it
 * returns contains the text.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchTextOf } from '../../src/core/store';
import { CacheQuerySchema } from '../../src/shared/schemas';
import { fillCache } from './cache-fixture';
import { engineRig, tempDir, type EngineRig } from './helpers';

const MAX = (() => {
  for (let n = 1; n < 10_000; n++) if (!CacheQuerySchema.safeParse({ text: 'a'.repeat(n) }).success) return n - 1;
  throw new Error('no text limit');
})();

const SYNTAX = [
  '"',
  '""',
  "'",
  '*',
  '^',
  ':',
  '(',
  ')',
  '-',
  '+',
  'NEAR',
  'NEAR(',
  'AND',
  'OR',
  'NOT',
  '\u0000',
  '\\',
  '%',
  '_',
  '{',
  '}',
  'text:',
  'rowid',
  ';',
  '--',
  '/*',
  '0x',
  'beam',
  'c-chain',
  'é',
  '😀',
  '\ud800',
  ' ',
  '\t',
  '\n',
];

describe('cache search text is data', () => {
  const tmp = tempDir();
  let rig: EngineRig;
  let people: string[];
  /** The text the index holds for a message (IDs, addresses, chain IDs and names, hashes). */
  const indexed = (messageId: string) => {
    const m = rig.store.messages.get(messageId)!.message;
    return searchTextOf(m, m);
  };

  beforeAll(() => {
    rig = engineRig(tmp.dir);
    ({ people } = fillCache(rig.store, 500, 777));
  });
  afterAll(() => {
    rig.close();
    tmp.cleanup();
  });

  it.each([
    ['\u0000'],
    ['ab\u0000cd'],
    ['"'],
    ['a" OR "b'],
    ['NEAR(a b)'],
    ['*'],
    ['^abc'],
    ['text:abc'],
    ['"unterminated'],
    ['😀'],
    ['\ud800\udc00x'],
    ['--'],
    ['beam" AND "c'],
  ])('%j answers without an error', (text) => {
    const page = rig.store.search.find({ text });
    expect(Array.isArray(page.items)).toBe(true);
    expect(page.total).toBe(page.items.length);
  });

  it('an FTS5 operator around a real address still finds only what contains the whole text', () => {
    const who = people[2]!.toLowerCase();
    expect(rig.store.search.find({ text: who.slice(2, 14) }).total).toBeGreaterThan(0);
    expect(rig.store.search.find({ text: `${who.slice(2, 14)}" OR "beam` }).total).toBe(0);
    expect(rig.store.search.find({ text: `${who.slice(2, 14)}*` }).total).toBe(0);
  });

  it('any string up to the limit returns results that contain it, or an empty list (fast-check)', () => {
    const text = fc.oneof(
      fc.string({ maxLength: MAX, unit: 'binary' }),
      fc.array(fc.constantFrom(...SYNTAX, ...people.slice(0, 3).map((p) => p.slice(2, 10))), { maxLength: 12 }).map((a) => a.join('').slice(0, MAX)),
    );
    fc.assert(
      fc.property(text, (t) => {
        expect(CacheQuerySchema.safeParse({ text: t }).success).toBe(true);
        const page = rig.store.search.find({ text: t, limit: 20 });
        const needle = t.trim().toLowerCase();
        // Substring search (3+ characters): every result holds the text somewhere in its record.
        if ([...needle].length >= 3 && !/^0x[0-9a-f]*$/.test(needle)) for (const c of page.items) expect(indexed(c.messageId)).toContain(needle);
      }),
      { numRuns: 400 },
    );
  });
});
