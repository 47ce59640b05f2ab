/**
 * Retention goes by a settled message's own time (its latest transaction's), not by when a read last met
 * it: the re-checks of an older tracked message page through an address's history every hour, so a
 * settled message there is met again and again. It goes once the retention is past, and a later read
 * that pages through it neither stores it again nor announces it. A real SQLite store, the engine and the
 * pruner the core runs, hour by hour as the poller would meet the message.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PRUNE_EVERY_MS } from '../../src/shared/policy';
import { msg, randomAddress, randomId, watchingRig, type EngineRig } from './helpers';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
let rig: EngineRig;
let cleanup: () => void;
const me = randomAddress();
beforeEach(() => {
  ({ rig, cleanup } = watchingRig(me));
  rig.settings.retentionDays = 1;
});
afterEach(() => {
  rig.close();
  cleanup();
});

/** What the retention part runs every PRUNE_EVERY_MS. */
const prune = () => rig.store.pruner.prune(rig.clock.now() - rig.settings.retentionDays * DAY);
const nowSec = () => Math.floor(rig.clock.now() / 1000);
const kindsOf = (id: string) =>
  rig.store.transitions
    .list({})
    .filter((t) => t.messageId === id)
    .map((t) => t.kind)
    .sort();

describe('retention by a message own time', () => {
  it('a settled message met every hour goes once the retention is past, and reads that meet it later neither keep nor announce it', async () => {
    const id = randomId();
    const ts = nowSec();
    const settled = () => msg({ id, from: me, status: 'delivered', receiptDelivered: true, ts });
    expect(rig.engine.observe([settled()], 'mainnet').map((t) => t.kind)).toEqual(['new', 'left_pending', 'receipt_delivered']);
    // Shown: a log entry whose notification is still to be shown would be kept until it is.
    for (const n of rig.store.outbox.claim()) rig.store.outbox.ack(n.id, rig.clock.now());
    let goneAtHour: number | null = null;
    for (let h = 1; h <= 48; h++) {
      await rig.clock.advance(HOUR);
      // Met again each hour (a re-check paging down to an older tracked message passes it).
      expect(rig.engine.observe([settled()], 'mainnet')).toEqual([]);
      if ((h * HOUR) % PRUNE_EVERY_MS === 0) prune();
      if (goneAtHour === null && !rig.store.messages.has(id)) goneAtHour = h;
    }
    // Delivered at ts + 10 s: past one day at hour 24, let go of by the first prune after it.
    expect(goneAtHour).toBe(24 + PRUNE_EVERY_MS / HOUR);
    expect(rig.store.messages.has(id)).toBe(false);
    // Its log entries went with the day too; nothing was logged again when the reads met it after.
    expect(kindsOf(id)).toEqual([]);
  });

  it('keeps a settled message within the retention however long ago a read met it', async () => {
    const id = randomId();
    rig.engine.observe([msg({ id, from: me, status: 'delivered', receiptDelivered: true, ts: nowSec() })], 'mainnet');
    await rig.clock.advance(23 * HOUR);
    prune();
    expect(rig.store.messages.has(id)).toBe(true);
  });

  it('does not store a settled message first met past the retention (history on a watch added now), and stores a pending one', async () => {
    const old = randomId();
    const stuck = randomId();
    const ts = nowSec() - 2 * 86_400;
    rig.engine.observe(
      [msg({ id: old, from: me, status: 'delivered', receiptDelivered: true, ts }), msg({ id: stuck, from: me, status: 'pending', ts })],
      'mainnet',
    );
    expect(rig.store.messages.has(old)).toBe(false);
    // Pending two days: still followed (a stuck message is what a watch is for), and kept while tracked.
    expect(rig.store.messages.state(stuck)?.tracked).toBe(true);
    await rig.clock.advance(PRUNE_EVERY_MS);
    prune();
    expect(rig.store.messages.has(stuck)).toBe(true);
  });

  it('a pending message no longer tracked stays while reads still return it (it has no delivery time to go by)', async () => {
    const id = randomId();
    const pending = msg({ id, from: me, status: 'pending', ts: nowSec() });
    rig.engine.observe([pending], 'mainnet');
    // Tracking ends after 7 days pending; a read meets it on day 8.
    for (let d = 1; d <= 8; d++) {
      await rig.clock.advance(DAY);
      rig.engine.observe([pending], 'mainnet');
      rig.engine.sweep();
    }
    expect(rig.store.messages.state(id)?.tracked).toBe(false);
    prune();
    expect(rig.store.messages.has(id)).toBe(true);
    await rig.clock.advance(DAY + HOUR);
    prune();
    expect(rig.store.messages.has(id)).toBe(false);
  });
});
