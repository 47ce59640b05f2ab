/**
 * docs/limits.md states every limit and tunable of src/shared/policy.ts with the same figure and a unit
 * that suits its name, and nothing else: the page is read as a user reads it (a value with its unit),
 * the module as the code reads it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as policy from '../../src/shared/policy';

/** A time's unit on the page, in seconds. */
const TIME_S: Record<string, number> = { s: 1, min: 60, h: 3600, days: 86_400 };
/** A name's last word that says a count, and the page's word for it. */
const COUNTS: Record<string, string> = {
  PAGES: 'pages',
  CHARS: 'characters',
  BYTES: 'bytes',
  PERCENT: '%',
  ADDRESSES: 'addresses',
  INTERVALS: 'intervals',
  SAMPLES: 'samples',
  CYCLES: 'cycles',
  REQUESTS: 'requests',
  READS: 'reads',
  MESSAGES: 'messages',
  SOURCES: 'sources',
  CONNECTIONS: 'connections',
  RETRIES: 'retries',
};
/** A share or a factor has no unit: the page states a bare number or fraction. */
const BARE = ['SHARE', 'FACTOR'];

interface Figure {
  value: number;
  /** 'time' (the value in seconds), a count's word, or '' (bare). */
  unit: string;
}

/** A constant's figure, from the last word of its name that names a unit (MAX_PAGES_PER_SCAN: pages). */
function figure(name: string, value: number): Figure {
  const units = ['MS', 'S', 'MINUTES', 'HOURS', 'DAYS', ...Object.keys(COUNTS), ...BARE];
  const last = name
    .split('_')
    .reverse()
    .find((w) => units.includes(w));
  if (last === 'MS') return { value: value / 1000, unit: 'time' };
  if (last === 'S') return { value, unit: 'time' };
  if (last === 'MINUTES') return { value: value * 60, unit: 'time' };
  if (last === 'HOURS') return { value: value * 3600, unit: 'time' };
  if (last === 'DAYS') return { value: value * 86_400, unit: 'time' };
  if (last && COUNTS[last]) return { value, unit: COUNTS[last] };
  if (last && BARE.includes(last)) return { value, unit: '' };
  throw new Error(`${name}: its name says no unit`);
}

function documented(): Map<string, Figure> {
  const page = readFileSync(join(__dirname, '..', '..', 'docs', 'limits.md'), 'utf8');
  const rows = new Map<string, Figure>();
  for (const m of page.matchAll(/^\| `([A-Za-z0-9_.[\]]+)` \| ([\d,.]+)(?:\/(\d+))?(?: ([a-z%]+))? \|/gm)) {
    const [, name, amount, denominator, unit = ''] = m;
    const value = Number(amount!.replace(/,/g, '')) / (denominator ? Number(denominator) : 1);
    rows.set(name!, unit in TIME_S ? { value: value * TIME_S[unit]!, unit: 'time' } : { value, unit });
  }
  return rows;
}

function inModule(): Map<string, Figure> {
  const values = new Map<string, Figure>();
  for (const [name, value] of Object.entries(policy)) {
    if (typeof value === 'number') values.set(name, figure(name, value));
    else if (Array.isArray(value)) value.forEach((v: number, i) => values.set(`${name}[${i}]`, figure(name, v)));
    else for (const [key, v] of Object.entries(value as Record<string, number>)) values.set(`${name}.${key}`, figure(name, v));
  }
  return values;
}

describe('docs/limits.md', () => {
  it('states every limit and tunable of the policy module, with the same figure and unit, and none it lacks', () => {
    const doc = documented();
    const code = inModule();
    expect(code.size).toBeGreaterThan(40);
    expect([...doc.keys()].sort()).toEqual([...code.keys()].sort());
    for (const [name, f] of code) {
      const stated = doc.get(name)!;
      expect({ name, unit: stated.unit, value: stated.value }).toEqual({ name, unit: f.unit, value: expect.closeTo(f.value, 9) });
    }
  });
});
