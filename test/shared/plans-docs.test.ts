/**
 * The plan figures live once, in src/shared/plans.ts: docs/data-api.md's plans table states the same
 * limits, the same sustained list calls and the same weights, and any page that quotes a plan's minute
 * and day limits in prose quotes a published pair. The page is read as a user reads it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATION_CU, PLAN_LIMITS, PLAN_NAMES, REQUEST_CU, WEIGHT_CLASS_CU } from '../../src/shared/plans';

const DOCS = join(__dirname, '..', '..', 'docs');
const page = (name: string) => readFileSync(join(DOCS, name), 'utf8');
const num = (s: string) => Number(s.replace(/,/g, ''));

describe('docs/data-api.md, "Rate limits"', () => {
  const doc = page('data-api.md');

  it('tables every plan with its CU per minute, CU per day and the list calls a minute its day sustains', () => {
    const rows = [...doc.matchAll(/^\| (\w+)[^|]* \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \|$/gm)].map((m) => ({
      plan: m[1]!.toLowerCase(),
      cuPerMinute: num(m[2]!),
      cuPerDay: num(m[3]!),
      listCallsPerMinute: num(m[4]!),
    }));
    const published = PLAN_NAMES.map((plan) => ({
      plan,
      ...PLAN_LIMITS[plan],
      listCallsPerMinute: Math.floor(PLAN_LIMITS[plan].cuPerDay / 1440 / REQUEST_CU),
    }));
    expect(rows).toEqual(published);
  });

  it("states the page's weight classes and the weight of each operation the app uses", () => {
    const classes = /the page's classes: ([^)]*) CU\)/.exec(doc)?.[1];
    expect(classes, 'the weight classes line').toBeDefined();
    const stated = Object.fromEntries(classes!.split(', ').map((c) => [c.split(' ')[0]!.toLowerCase(), num(c.split(' ')[1]!)]));
    expect(stated).toEqual(WEIGHT_CLASS_CU);
    const operations = [...doc.matchAll(/^\| `GET [^`]+` [^|]*\| (?:\w+, )?(\d+) CU/gm)].map((m) => num(m[1]!));
    expect(operations).toEqual([OPERATION_CU.list, OPERATION_CU.addressList, OPERATION_CU.byId]);
  });
});

describe('every docs page', () => {
  it("quotes a plan's limits in prose only as a published pair (CU a minute, a day)", () => {
    const pairs = new Set(PLAN_NAMES.map((p) => `${PLAN_LIMITS[p].cuPerMinute}/${PLAN_LIMITS[p].cuPerDay}`));
    const quoted: string[] = [];
    for (const name of readdirSync(DOCS).filter((f) => f.endsWith('.md'))) {
      const text = page(name).replace(/\s+/g, ' ');
      for (const m of text.matchAll(/([\d,]+) CU a minute,? (?:and )?([\d,]+)(?: CU)? a day/g)) quoted.push(`${name}: ${num(m[1]!)}/${num(m[2]!)}`);
    }
    expect(quoted.length).toBeGreaterThan(2);
    for (const q of quoted) expect({ q, published: pairs.has(q.split(': ')[1]!) }).toEqual({ q, published: true });
  });
});
