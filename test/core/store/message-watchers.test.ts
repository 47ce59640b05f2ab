import { describe, expect, it } from 'vitest';
import { messageRow, useStore } from './store-rig';

describe('MessageWatchers (real SQLite)', () => {
  const store = useStore();

  it('links a message to a watcher once, keeping the first link', () => {
    store().messageWatchers.add('m1', '0xabc', 10, true);
    store().messageWatchers.add('m1', '0xabc', 20, false);
    store().messageWatchers.add('m1', 'feed:f1', 30, false);
    expect(store().messageWatchers.of('m1')).toEqual([
      { watcher: '0xabc', baseline: true },
      { watcher: 'feed:f1', baseline: false },
    ]);
    expect(store().messageWatchers.addressesOf('m1')).toEqual(['0xabc']);
    expect(store().messageWatchers.of('m2')).toEqual([]);
  });

  it('counts a watcher’s cached messages at or after a sort time (source time, else destination time)', () => {
    const rows = [1_767_000_000, 1_767_000_100, 1_767_000_200].map((ts) => messageRow({ ts }));
    const noSource = messageRow({ status: 'delivered', ts: 1_767_000_300 }, { sourceTs: null });
    for (const r of [...rows, noSource]) {
      store().messages.insert(r);
      store().messageWatchers.add(r.messageId, '0xabc', 1, false);
    }
    store().messages.insert(messageRow({ ts: 1_767_000_500 })); // not this watcher's
    expect(store().messageWatchers.countSince('0xabc', 1_767_000_100)).toBe(3);
    expect(store().messageWatchers.countSince('0xabc', 1_767_000_305)).toBe(1);
    expect(store().messageWatchers.countSince('0xabc', 1_767_000_400)).toBe(0);
    expect(store().messageWatchers.countSince('0xdef', 0)).toBe(0);
  });
});
