/**
 * carrier-coverage.ts on the real local service with a whole core: where the unfiltered list is read
 * without a gap, a delivered message awaiting its receipt is no longer re-checked by ID once the
 * coverage margin has passed (a one-way route's receipts never come back: that re-check grew with every
 * delivery until it spent the day's budget), while every receipt that does come back on a carrier is
 * still found, exactly once; and coverage begins again after a cycle that does not read the list.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { noteCoverage, receiptCovered } from '../../src/core/poller/carrier-coverage';
import type { NetworkState } from '../../src/core/poller/network-state';
import { CHAIN_REGISTRY } from '../../src/shared/chains';
import { COVERAGE_MARGIN_MS, MAX_LATENESS_S, TRAIL_PERIOD_MS } from '../../src/shared/policy';
import { DATABASE_FILE } from '../../src/core/store/database';
import { loadSqlite } from '../../src/sqlite';
import { compare } from '../support/ground-truth';
import { tempDir } from './helpers';
import { coreRig, type CoreRig } from './service-rig';

const MIN = 60_000;
const chain = (name: string) => CHAIN_REGISTRY.chains.find((c) => c.network === 'mainnet' && c.name === name)!.blockchainId;

describe('noteCoverage', () => {
  const state = (o: Partial<NetworkState>) =>
    ({ mode: 'firehose', head: { ts: 0, at: 0 }, echoChain: null, lastTrailAt: null, stall: null, coveredSince: null, ...o }) as NetworkState;

  it('holds while the firehose reads on; begins again after a cycle without it, a late trailing sweep or a stall beyond the sweeps', () => {
    const s = state({});
    noteCoverage(s, 1_000);
    noteCoverage(s, 31_000);
    expect(s.coveredSince).toBe(1_000);
    expect(receiptCovered(s.coveredSince, 1_000 + COVERAGE_MARGIN_MS - 1)).toBe(false);
    expect(receiptCovered(s.coveredSince, 1_000 + COVERAGE_MARGIN_MS)).toBe(true);
    s.mode = 'per-address';
    noteCoverage(s, 61_000);
    expect(s.coveredSince).toBeNull();
    s.mode = 'firehose';
    noteCoverage(s, 91_000);
    expect(s.coveredSince).toBe(91_000);
    // The last trailing sweep began 25 min ago and more: records 30 min late may have passed it.
    s.lastTrailAt = 91_000;
    noteCoverage(s, 91_000 + 25 * MIN + 1);
    expect(s.coveredSince).toBe(91_000 + 25 * MIN + 1);
    // A stall longer than the sweeps reach, seen resumed: once.
    const at = s.coveredSince! + 1;
    s.lastTrailAt = at;
    s.stall = { fromTs: 0, stalledSec: 5 * 3600, resumedAt: at, floorTs: 0, limited: true };
    noteCoverage(s, at);
    noteCoverage(s, at + 30_000);
    expect(s.coveredSince).toBe(at);
    noteCoverage(state({ head: null }), 1);
    expect(receiptCovered(null, Number.MAX_SAFE_INTEGER)).toBe(false);
  });
});

describe('receipts re-checked by ID only while their carriers may have been missed', () => {
  let tmp: ReturnType<typeof tempDir> | null = null;
  let rig: CoreRig | null = null;
  afterEach(async () => {
    await rig?.close();
    tmp?.cleanup();
    rig = tmp = null;
  });

  it('a one-way route: no re-check after the margin; a two-way route: every receipt found, once', async () => {
    tmp = tempDir();
    const asked = new Map<string, number[]>();
    let clockNow = () => 0;
    rig = await coreRig(
      tmp.dir,
      {
        seed: 5,
        rate: 0,
        preload: 0,
        addressCount: 20,
        // As on the real network: a receipt comes back only when traffic goes back (no relayer re-sends it).
        receiptResends: false,
        rateLimitPerMinute: { keyed: 1e6, anonymous: 1e6 },
        logRequests: true,
        log: (line) => {
          // Re-checks: a message by ID, or a watched address's list (the cheaper way for its due messages).
          const key = (/^GET \S*\/messages\/(?:0x)?([0-9a-f]{64}) /i.exec(line) ?? /^GET \S*\/addresses\/(0x[0-9a-f]{40})\/messages /i.exec(line))?.[1];
          if (key) asked.set(key.toLowerCase(), [...(asked.get(key.toLowerCase()) ?? []), clockNow()]);
        },
      },
      { keychainService: `tw-test-${randomBytes(3).toString('hex')}`, interval: 30 },
    );
    const r = rig;
    clockNow = () => r.clock.now();
    const sim = r.svc.simulator;
    // Fifteen watched addresses: reading the unfiltered list is cheaper than fifteen lists (firehose mode).
    const watched = sim.addresses.slice(0, 15);
    for (const a of watched) expect((await r.core.invoke('addWatch', { address: a, network: 'mainnet', notify: { new: true } })).ok).toBe(true);
    await r.poll();
    const baselineAt = r.clock.now();
    const [a, b, c, d, g] = [chain('C-Chain'), chain('Beam'), chain('DFK Chain'), chain('Dexalot'), chain('Gunzilla')];
    const stranger = sim.addresses[19]!;
    // A message a second nobody watches, never from Beam to the C-Chain: a page of the list holds under a minute,
    // so a message awaiting its receipt is soon below the pages a cycle reads (re-checked by ID).
    // Spread over the cycle's 30 s, as real traffic is (the poller measures the list's rate from its timestamps).
    const backgroundCycle = async () => {
      for (let k = 0; k < 30; k++) {
        sim.send({ source: k % 2 ? g : d, destination: k % 2 ? d : g, from: stranger, to: stranger, outcome: 'normal', deliveryDelayMs: 5_000 });
        await r.clock.advance(1_000);
      }
    };
    const oneWay: string[] = [];
    const twoWay: string[] = [];
    for (let cycle = 0; cycle < 160; cycle++) {
      // For the first 40 min, every 2 min: A→B (nothing ever comes back) and C→D, whose receipt a D→C message brings back.
      if (cycle % 4 === 0 && cycle < 80) {
        oneWay.push(sim.send({ source: a, destination: b, from: watched[0], to: watched[1], outcome: 'normal', deliveryDelayMs: 5_000 }));
        twoWay.push(sim.send({ source: c, destination: d, from: watched[2], to: watched[3], outcome: 'normal', deliveryDelayMs: 5_000 }));
      }
      if (cycle % 4 === 2 && cycle < 84) sim.send({ source: d, destination: c, from: stranger, to: stranger, outcome: 'normal', deliveryDelayMs: 5_000 });
      await backgroundCycle();
      await r.poll();
    }

    // Every transition the truth expects, once: the two-way route's receipts came back and were found.
    const expected = r.truth.expected({ baselineAt, watched: new Set(watched), network: 'mainnet' });
    const judged = compare(
      expected,
      r.transitions.map((t) => ({ id: t.messageId, kind: t.kind, at: t.at })),
    );
    expect(judged.missed).toEqual([]);
    expect(judged.duplicates).toBe(0);
    expect(r.transitions.filter((t) => t.kind === 'receipt_delivered' && twoWay.includes(t.messageId))).toHaveLength(20);
    // The one-way route's messages, awaiting receipts for good: neither asked for by ID nor through their
    // addresses' lists in the last half hour (the fallback would read them every 12-25 min) ...
    const lastHalfHour = r.clock.now() - 30 * MIN;
    const askedOf = (key: string) => asked.get(key.replace(/^0x(?=[0-9a-f]{64}$)/i, '').toLowerCase()) ?? [];
    const oneWayReads = [...oneWay, watched[0]!, watched[1]!].map(askedOf);
    expect(oneWayReads.flatMap((at) => at.filter((t) => t >= lastHalfHour))).toEqual([]);
    // ... nor re-read through the unfiltered list once older than its reads for late records reach (the
    // core's own file: when each was last read, by any request), yet still tracked, awaiting their receipts.
    const db = new (loadSqlite().DatabaseSync)(join(tmp.dir, DATABASE_FILE), { readOnly: true });
    try {
      const row = db.prepare('SELECT last_seen_at AS seen, source_ts AS sent, tracked FROM messages WHERE message_id = ?');
      const reach = (MAX_LATENESS_S * 1000 + TRAIL_PERIOD_MS + 60_000) / 1000;
      for (const id of oneWay) {
        const m = row.get(id) as { seen: number; sent: number; tracked: number };
        expect(m.tracked).toBe(1);
        expect(m.seen / 1000 - m.sent, id).toBeLessThanOrEqual(reach);
      }
    } finally {
      db.close();
    }
  }, 180_000);
});
