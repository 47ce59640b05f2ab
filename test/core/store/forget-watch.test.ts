import { describe, expect, it } from 'vitest';
import { forgetWatcherData } from '../../../src/core/store/forget-watch';
import { messageRow, useStore } from './store-rig';

describe('forgetWatcherData (real SQLite)', () => {
  const store = useStore();

  it('deletes the messages only this watcher has, out of the search as well; shared ones stay', () => {
    const own = messageRow({ ts: 1_767_000_000 });
    const shared = messageRow({ ts: 1_767_000_001, from: own.from });
    for (const r of [own, shared]) {
      store().messages.insert(r);
      store().messageWatchers.add(r.messageId, 'demo', 1, false);
    }
    store().messageWatchers.add(shared.messageId, '0xreal', 1, false);
    expect(forgetWatcherData(store().db, 'demo')).toBe(1);
    expect(store().messages.has(own.messageId)).toBe(false);
    expect(store().messages.has(shared.messageId)).toBe(true);
    // The sender is in both messages' search text (trigram and 0x-prefix index): only the kept one may be found, and counted.
    const bySender = store().search.find({ text: own.from.slice(2, 14) });
    expect(bySender.items.map((s) => s.messageId)).toEqual([shared.messageId]);
    expect(bySender.total).toBe(1);
    expect(store().search.find({ text: own.from.slice(0, 8) }).total).toBe(1);
  });
});
