import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { effectiveStatus, rawRecord } from '../../src/shared/messages';
import { searchTextOf } from '../../src/core/store/message-store';
import { parseMessage, type TeleporterMessage } from '../../src/shared/messages';
import { engineRig, tempDir, type EngineRig } from './helpers';
import { fillCache } from './cache-fixture';

// The cache search keeps recently parsed records and reads the text index alone when nothing else filters.
describe('searchCache answers from the stored records as they are now', () => {
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

  it('shows a record changed since the last search, not the parsed copy it kept', () => {
    const first = rig.store.messages.search({ limit: 5 }).items[0]!.message;
    const pending = rig.store.messages.search({ status: 'pending', limit: 1 }).items[0]!.message;
    expect(rig.store.messages.search({ text: pending.messageId, limit: 1 }).items[0]!.message.status).toBe('pending');
    // The message is delivered: the stored record is replaced under the same rowid.
    const raw: Record<string, unknown> = { ...rawRecord(pending), status: 'delivered', messageExecuted: true, destinationTransaction: { txHash: '0x' + 'ab'.repeat(32), timestamp: 1_767_000_999, gasSpent: '1' } };
    const m = parseMessage(raw) as TeleporterMessage;
    const state = rig.store.messages.state(pending.messageId)!;
    rig.store.messages.update(state.rowid, {
      messageId: m.messageId, network: 'mainnet', status: 'delivered', receiptDelivered: false, from: String(raw.from), to: String(raw.to),
      sourceChain: String(raw.sourceBlockchainId), destinationChain: String(raw.destinationBlockchainId), sourceTs: null, destinationTs: 1_767_000_999,
      raw: JSON.stringify(raw), searchText: searchTextOf(m, raw), seenAt: 2, tracked: false, pendingSince: null, stuckFired: false,
    });
    const again = rig.store.messages.search({ text: pending.messageId, limit: 1 }).items[0]!.message;
    expect(effectiveStatus(again)).toBe('delivered');
    expect(rig.store.messages.search({ limit: 5 }).items[0]!.message).toEqual(first);
  });

  it('counts and pages a text search the same with or without other filters that pass everything', () => {
    for (const text of [people[7]!.slice(0, 2), people[7]!.slice(2, 12), 'beam', 'c-chain']) {
      const alone = rig.store.messages.search({ text, limit: 50 });
      const filtered = rig.store.messages.search({ text, network: 'mainnet', limit: 50 });
      expect(alone.total).toBeGreaterThan(0);
      expect(alone.total).toBe(filtered.total);
      expect(alone.items.map((c) => c.message.messageId)).toEqual(filtered.items.map((c) => c.message.messageId));
      // Past the first page too (the page is read from the rowids the count walked).
      const next = rig.store.messages.search({ text, limit: 50, offset: 50 });
      const nextFiltered = rig.store.messages.search({ text, network: 'mainnet', limit: 50, offset: 50 });
      expect(next.items.map((c) => c.message.messageId)).toEqual(nextFiltered.items.map((c) => c.message.messageId));
    }
  });
});
