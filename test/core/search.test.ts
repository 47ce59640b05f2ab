import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TeleporterMessage } from '../../src/shared/messages';
import { SEARCH_COUNT_CAP } from '../../src/core/store';
import { engineRig, tempDir, type EngineRig } from './helpers';
import { fillCache } from './cache-fixture';

// How fast it answers at 100,000 messages is measured by `npm run bench:search`, not asserted here;
// 20,000 are enough for past-the-cap counts and every prefix (and load in a fifth of the time).
// Each of the fixture's 500 people sends 40 and receives 40 of them (fewer when sending to itself).
const PER_PERSON_AT_LEAST = 70;

describe('searchCache on 20,000 cached messages', () => {
  const tmp = tempDir();
  let rig: EngineRig;
  let people: string[];
  let probe: TeleporterMessage;
  /** The full stored record of a result, as lower-cased JSON (results carry only a row's fields). */
  const record = (messageId: string) => JSON.stringify(rig.store.messages.get(messageId)?.message).toLowerCase();

  beforeAll(() => {
    rig = engineRig(tmp.dir);
    ({ people, probe } = fillCache(rig.store, 20_000, 12_345));
  }, 120_000);
  afterAll(() => {
    rig.close();
    tmp.cleanup();
  });

  it('finds by any part of an ID, address, chain name or hash, newest first', () => {
    const id = probe.messageId;
    const byId = rig.store.search.find({ text: id.slice(10, 22) });
    expect(byId.items[0]?.messageId).toBe(id);
    expect(byId.total).toBe(1);
    const who = people[3]!;
    const byAddr = rig.store.search.find({ text: who.slice(2, 14).toUpperCase(), limit: 20 });
    expect(byAddr.total).toBeGreaterThanOrEqual(PER_PERSON_AT_LEAST);
    const ts = byAddr.items.map((c) => c.time ?? 0);
    expect([...ts].sort((a, b) => b - a)).toEqual(ts);
    // Exact counts up to the cap, then the cap with a flag.
    const pendingBeam = rig.store.search.find({ text: 'beam', status: 'pending' });
    expect(pendingBeam.total).toBe(SEARCH_COUNT_CAP);
    expect(pendingBeam.totalCapped).toBe(true);
    expect(rig.store.search.find({ text: who.slice(2, 14), status: 'pending' }).totalCapped).toBeUndefined();
    expect(rig.store.search.find({ text: 'zz-no-such' }).total).toBe(0);
  });

  it('answers each prefix of a typed ID or address with the messages that contain it', () => {
    const id = probe.messageId;
    for (let n = 1; n <= 16; n++) {
      const page = rig.store.search.find({ text: id.slice(0, n), limit: 50 });
      for (const c of page.items) expect(record(c.messageId)).toContain(id.slice(0, n));
      if (n >= 12) expect(page.items.map((c) => c.messageId)).toContain(id);
    }
    const who = people[42]!.toLowerCase();
    const short = rig.store.search.find({ text: who.slice(0, 2), limit: 50 });
    expect(short.items).toHaveLength(50);
    const typed = rig.store.search.find({ text: who.slice(0, 12), limit: 50 });
    expect(typed.total).toBeGreaterThanOrEqual(PER_PERSON_AT_LEAST);
    for (const c of typed.items) expect(record(c.messageId)).toContain(who.slice(0, 12));
  });
});
