/**
 * Issue 41, property-based: a custom Data API serves, under one watched address, pages of arbitrary and
 * mutated records (wrong types, huge numbers, milliseconds, negatives, NaN-like text, very long text,
 * unknown statuses, missing fields, whole garbage) among good ones, beside a good watch. Whatever the
 * pages hold: every poll ends without an error, the good watch's transitions arrive exactly once, the
 * reads over what was stored (cache search, Charts, the message itself) answer, and memory stays bounded.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { customSourceCore } from './custom-source-core';
import { apiRecord, randomAddress, randomId } from './helpers';
import type { Served } from './scripted-data-api';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

let deep: unknown = 'bottom';
for (let i = 0; i < 500; i++) deep = [deep];

/** Values no field expects: what a broken or hostile server sends. */
const weird = fc.oneof(
  fc.constantFrom(null, true, 0, -1, 1.5, 2 ** 53, 2 ** 64, 1e308, -1e308, 1_795_897_196_118, 1_767_225_600_000),
  fc.double(), // NaN and the infinities are sent as null, as JSON.stringify does
  fc.integer(),
  fc.bigInt({ min: 0n, max: 2n ** 300n }).map(String),
  fc.constantFrom('NaN', '-1', '1e5', '0x10', '', ' ', 'Infinity', '١٢٣', '<script>alert(1)</script>', '\u0000\u202e'),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('x'.repeat(2_049), 'a'.repeat(70_000), `0x${'ab'.repeat(600_000)}`),
  fc.constantFrom('teleported', 'PENDING', 'delivered ', 'x'.repeat(65)),
  fc.jsonValue({ maxDepth: 3 }),
  fc.constant(deep),
);

const FIELDS: (string | number)[][] = [
  ['messageId'],
  ['status'],
  ['from'],
  ['to'],
  ['messageNonce'],
  ['data'],
  ['receipts'],
  ['receipts', 0],
  ['receiptDelivered'],
  ['messageExecuted'],
  ['rewardDetails'],
  ['rewardDetails', 'value'],
  ['rewardDetails', 'decimals'],
  ['rewardDetails', 'price'],
  ['rewardDetails', 'name'],
  ['sourceTransaction'],
  ['sourceTransaction', 'timestamp'],
  ['sourceTransaction', 'gasSpent'],
  ['sourceTransaction', 'txHash'],
  ['destinationTransaction'],
  ['destinationTransaction', 'timestamp'],
  ['destinationTransaction', 'delivererAddress'],
  ['sourceBlockchainId'],
  ['destinationEvmChainId'],
  ['teleporterContractAddress'],
  ['somethingNew'],
];

/** A record of the garbage watch, as a recipe: its status, its sort time, and what is done to it. */
const mutated = fc.record({
  status: fc.constantFrom('pending', 'delivered', 'delivered_source_not_indexed'),
  ageSec: fc.integer({ min: 0, max: 600 }),
  changes: fc.array(fc.record({ path: fc.constantFrom(...FIELDS), value: fc.option(weird, { nil: undefined }) }), { maxLength: 3 }),
});
const whole: fc.Arbitrary<Recipe> = fc.jsonValue({ maxDepth: 2 }).map((w) => ({ whole: w }));
const garbage: fc.Arbitrary<Recipe> = fc.oneof({ weight: 5, arbitrary: mutated }, { weight: 1, arbitrary: whole });
/** One round: the garbage list (with good records of the same watch among it, so it spans pages). */
const round = fc.record({ records: fc.array(garbage, { maxLength: 40 }), good: fc.integer({ min: 0, max: 130 }) });

type Recipe = { whole: unknown } | { status: string; ageSec: number; changes: { path: (string | number)[]; value: unknown }[] };

/** The record a recipe makes for the garbage watch `owner`, as served now. */
function build(r: Recipe, owner: string, nowS: number): Served {
  if ('whole' in r) return { body: r.whole, sortTs: nowS, owners: [owner] };
  const rec = apiRecord({ from: owner, status: r.status, ts: nowS - r.ageSec });
  for (const { path, value } of r.changes) {
    let at = rec as Record<string | number, unknown>;
    for (const k of path.slice(0, -1)) {
      const next = at[k];
      if (typeof next !== 'object' || next === null) break;
      at = next as Record<string | number, unknown>;
    }
    if (value === undefined) delete at[path.at(-1)!];
    else at[path.at(-1)!] = value;
  }
  return { body: rec, sortTs: nowS - r.ageSec, owners: [owner] };
}

describe('pages of arbitrary records beside a good watch', () => {
  it('never stop polling; the good watch hears each change exactly once; memory stays bounded', async () => {
    const baseRss = process.memoryUsage().rss;
    let peakRss = baseRss;
    let skipped = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(round, { minLength: 2, maxLength: 4 }), async (rounds) => {
        const r = await customSourceCore(cleanups);
        const good = randomAddress();
        const hostile = randomAddress();
        const owner = hostile.toLowerCase();
        await r.call('addWatch', { address: good });
        await r.call('addWatch', { address: hostile });
        const sent: Record<string, unknown>[] = [];
        const expected: string[] = [];
        for (const [i, page] of rounds.entries()) {
          await r.clock.advance(30_000);
          const nowS = Math.floor(r.clock.now() / 1000);
          const fillers = Array.from({ length: page.good }, (_, k) => ({
            body: apiRecord({ from: hostile, status: 'pending', ts: nowS - k }),
            sortTs: nowS - k,
            owners: [owner],
          }));
          // The good watch: a new message each round, and last round's delivered.
          const fresh = apiRecord({ id: randomId(), from: good, status: 'pending', ts: nowS });
          sent.push(fresh);
          expected.push(`${fresh.messageId as string}:new`);
          const goods: Served[] = sent.map((m, k) =>
            k === i - 1
              ? {
                  body: apiRecord({ id: m.messageId as string, from: good, status: 'delivered', ts: nowS - 30 }),
                  sortTs: nowS - 30,
                  owners: [good.toLowerCase()],
                }
              : { body: m, sortTs: nowS - 30 * (i - k), owners: [good.toLowerCase()] },
          );
          if (i > 0) {
            sent[i - 1] = goods[i - 1]!.body as Record<string, unknown>;
            expected.push(`${sent[i - 1]!.messageId as string}:left_pending`);
          }
          r.api.records = [...goods, ...page.records.map((g) => build(g, owner, nowS)), ...fillers];
          const status = await r.poll();
          expect(status.lastError).toBeNull();
          peakRss = Math.max(peakRss, process.memoryUsage().rss);
          skipped = Math.max(skipped, status.skippedRecords?.total ?? 0);
        }
        const heard = r.announced.filter((k) => sent.some((m) => k.startsWith(m.messageId as string)));
        expect(heard.sort()).toEqual(expected.sort());
        // What was stored reads back.
        await r.call('searchCache', { text: '' });
        await r.call('searchCache', { text: '0x' });
        await r.call('getStats', { hours: 24 });
        await r.call('listTransitions', {});
        for (const c of cleanups.splice(0).reverse()) await c();
      }),
      { numRuns: 30, endOnFailure: true },
    );
    expect(skipped).toBeGreaterThan(0); // the pages did hold what the boundary skips
    expect(peakRss - baseRss).toBeLessThan(400 * 1024 * 1024);
  }, 60_000);
});
