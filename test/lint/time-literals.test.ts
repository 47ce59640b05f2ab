import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

// A time in ms is spelled once, in src/shared/time.ts (docs/limits.md, "Where numbers live"): lint refuses it elsewhere in src/.
const eslint = new ESLint({ cwd: process.cwd(), overrideConfig: tseslint.configs.disableTypeChecked });
async function flagged(file: string, code: string): Promise<number> {
  const [res] = await eslint.lintText(code, { filePath: file });
  return (res?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').length;
}

describe('time literal rule', () => {
  it('refuses a minute, an hour or a day in ms written out in src/, as a literal or a product', async () => {
    const code = [
      'export const a = 60_000;',
      'export const b = 3600_000;',
      'export const c = 86_400_000;',
      'export const d = 60 * 1000;',
      'export const e = 60 * 60 * 1000;',
      'export const f = 1000 * 3600;',
      'export const g = 5 * 60_000;',
    ].join('\n');
    expect(await flagged('src/core/x.ts', code)).toBe(7);
    expect(await flagged('src/renderer/src/logic/x.ts', 'export const late = (ms: number) => ms >= 60_000;\n')).toBe(1);
  });

  it('allows the units themselves in time.ts, other numbers, seconds, and tests', async () => {
    expect(await flagged('src/shared/time.ts', 'export const MINUTE_MS = 60_000;\n')).toBe(0);
    expect(
      await flagged('src/core/x.ts', 'export const a = 30 * 60;\nexport const b = 2_000;\nexport const c = 24 * 3600;\nexport const d = 1_000_000;\n'),
    ).toBe(0);
    expect(await flagged('test/core/x.test.ts', 'export const a = 60_000;\n')).toBe(0);
  });
});
