/**
 * docs/limits.md states every limit of src/shared/policy.ts with the same figure, and nothing else:
 * the page is read as a user reads it (a value with its unit), the module as the code reads it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as policy from '../../src/shared/policy';

const UNIT_S: Record<string, number> = { s: 1, min: 60, h: 3600, days: 86_400, pages: 1, characters: 1, bytes: 1, '%': 1 };
/** A constant's value in seconds (or pages), from the unit its name ends with. */
function seconds(name: string, value: number): number {
  if (name.endsWith('_MS')) return value / 1000;
  if (name.endsWith('_S')) return value;
  if (name.endsWith('_MINUTES')) return value * 60;
  if (name.includes('_HOURS')) return value * 3600;
  if (name.endsWith('_DAYS')) return value * 86_400;
  if (name.endsWith('_PAGES')) return value;
  if (name.endsWith('_CHARS') || name.endsWith('_BYTES') || name.endsWith('_PERCENT')) return value;
  throw new Error(`${name}: its name says no unit`);
}

function documented(): Map<string, number> {
  const page = readFileSync(join(__dirname, '..', '..', 'docs', 'limits.md'), 'utf8');
  const rows = new Map<string, number>();
  for (const m of page.matchAll(/^\| `([A-Z_.a-z]+)` \| ([\d,.]+) (s|min|h|days|pages|characters|bytes|%) \|/gm)) {
    rows.set(m[1]!, Number(m[2]!.replace(/,/g, '')) * UNIT_S[m[3]!]!);
  }
  return rows;
}

function inModule(): Map<string, number> {
  const values = new Map<string, number>();
  for (const [name, value] of Object.entries(policy)) {
    if (typeof value === 'number') values.set(name, seconds(name, value));
    else for (const [key, v] of Object.entries(value as Record<string, number>)) values.set(`${name}.${key}`, seconds(name, v));
  }
  return values;
}

describe('docs/limits.md', () => {
  it('states every limit of the policy module, with the same figure, and none it lacks', () => {
    const doc = documented();
    const code = inModule();
    expect(code.size).toBeGreaterThan(20);
    expect([...doc.keys()].sort()).toEqual([...code.keys()].sort());
    for (const [name, value] of code) expect({ name, value: doc.get(name) }).toEqual({ name, value });
  });
});
