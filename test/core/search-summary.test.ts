import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CacheSummary } from '../../src/shared/contract';
import { parseMessage, rawRecord, type TeleporterMessage } from '../../src/shared/messages';
import { summaryOf } from '../shared/summary-of';
import { searchTextOf, type CachedMessages } from '../../src/core/store';
import { engineRig, tempDir, type EngineRig } from './helpers';
import { fillCache } from './cache-fixture';

/** Stores `raw` as the message's record (a new row, or the existing row replaced under its rowid). */
function put(messages: CachedMessages, raw: Record<string, unknown>, status: string): TeleporterMessage {
  const m = parseMessage(raw) as TeleporterMessage;
  const s = (v: unknown) => (typeof v === 'string' ? v : '');
  const row = {
    messageId: m.messageId,
    network: 'mainnet' as const,
    status,
    receiptDelivered: raw.receiptDelivered === true,
    from: s(raw.from),
    to: s(raw.to),
    sourceChain: s(raw.sourceBlockchainId),
    destinationChain: s(raw.destinationBlockchainId),
    sourceTs: (raw.sourceTransaction as { timestamp?: number } | undefined)?.timestamp ?? null,
    destinationTs: (raw.destinationTransaction as { timestamp?: number } | undefined)?.timestamp ?? null,
    raw: JSON.stringify(raw),
    searchText: searchTextOf(m, raw),
    seenAt: 2,
    tracked: false,
    pendingSince: null,
    stuckFired: false,
    source: 'local',
  };
  const state = messages.state(m.messageId);
  if (state) messages.update(state.rowid, row);
  else messages.insert(row);
  return m;
}

/** What a result row must say: what the full record getMessage returns implies. */
function expectedSummary(messages: CachedMessages, messageId: string): CacheSummary {
  const c = messages.get(messageId)!;
  return summaryOf(c.message, c.network, c.lastSeenAt);
}

// Search answers with slim rows read from the store's columns; the full record comes from getMessage.
describe('searchCache result rows', () => {
  const tmp = tempDir();
  let rig: EngineRig;
  let people: string[];

  beforeAll(() => {
    rig = engineRig(tmp.dir);
    ({ people } = fillCache(rig.store, 600, 10));
  });
  afterAll(() => {
    rig.close();
    tmp.cleanup();
  });

  it('say what the full record says, for every cached message', () => {
    const all = rig.store.search.find({ limit: 600 });
    expect(all.items).toHaveLength(600);
    expect(new Set(all.items.map((s) => s.status)).size).toBeGreaterThan(1);
    for (const s of all.items) expect(s).toEqual(expectedSummary(rig.store.messages, s.messageId));
  });

  it('show a record changed since the last search as it is now', () => {
    const pending = rig.store.search.find({ status: 'pending', limit: 1 }).items[0]!;
    expect(rig.store.search.find({ text: pending.messageId, limit: 1 }).items[0]!.status).toBe('pending');
    const raw = {
      ...rawRecord(rig.store.messages.get(pending.messageId)!.message),
      status: 'delivered',
      receiptDelivered: true,
      destinationTransaction: { txHash: '0x' + 'ab'.repeat(32), timestamp: 1_767_000_999, gasSpent: '1' },
    };
    put(rig.store.messages, raw, 'delivered');
    const again = rig.store.search.find({ text: pending.messageId, limit: 1 }).items[0]!;
    expect(again).toMatchObject({ status: 'delivered', receiptDelivered: true });
    expect(again).toEqual(expectedSummary(rig.store.messages, pending.messageId));
  });

  it('name a chain known only by its EVM chain ID, and leave out what the record lacks', () => {
    const newest = rig.store.search.find({ limit: 1 }).items[0]!;
    const base = rawRecord(rig.store.messages.get(newest.messageId)!.message);
    const messageId = '0x' + 'e1'.repeat(32);
    const { sourceBlockchainId: _s, destinationBlockchainId: _d, from: _f, sourceTransaction: _t, destinationTransaction: _u, ...rest } = base;
    put(rig.store.messages, { ...rest, messageId, status: 'pending', sourceEvmChainId: '43114', destinationEvmChainId: '53935' }, 'pending');
    const s = rig.store.search.find({ text: messageId, limit: 1 }).items[0]!;
    expect(s).toMatchObject({ messageId, sourceChain: '43114', destinationChain: '53935', from: null, time: null });
    expect(s).toEqual(expectedSummary(rig.store.messages, messageId));
  });

  it('count and page a text search the same with or without other filters that pass everything', () => {
    for (const text of [people[7]!.slice(0, 2), people[7]!.slice(2, 12), 'beam', 'c-chain']) {
      const alone = rig.store.search.find({ text, limit: 50 });
      const filtered = rig.store.search.find({ text, network: 'mainnet', limit: 50 });
      expect(alone.total).toBeGreaterThan(0);
      expect(alone.total).toBe(filtered.total);
      expect(alone.items.map((c) => c.messageId)).toEqual(filtered.items.map((c) => c.messageId));
      // Past the first page too (the page is read from the rowids the count walked).
      const next = rig.store.search.find({ text, limit: 50, offset: 50 });
      const nextFiltered = rig.store.search.find({ text, network: 'mainnet', limit: 50, offset: 50 });
      expect(next.items.map((c) => c.messageId)).toEqual(nextFiltered.items.map((c) => c.messageId));
    }
  });
});
