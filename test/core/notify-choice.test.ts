import { afterEach, describe, expect, it } from 'vitest';
import { engineRig, msg, randomAddress, randomId, tempDir } from './helpers';

describe("the watch's Notify-on choices", () => {
  const tmp = tempDir();
  const rig = engineRig(tmp.dir);
  afterEach(() => {
    rig.close();
    tmp.cleanup();
  });

  it('mark each live transition as announced or not, and only announced ones reach the outbox', () => {
    const me = randomAddress();
    rig.watch(me);
    rig.store.watches.updateWatch(me, { notify: { new: false, left_pending: true, receipt_delivered: false, stuck: true } });
    const id = randomId();
    const first = rig.engine.observe([msg({ id, from: me, status: 'pending' })], 'mainnet');
    expect(first.map((t) => [t.kind, t.notify])).toEqual([['new', false]]);
    const later = rig.engine.observe([msg({ id, from: me, status: 'delivered', receiptDelivered: true })], 'mainnet');
    expect(later.map((t) => [t.kind, t.notify])).toEqual([
      ['left_pending', true],
      ['receipt_delivered', false],
    ]);
    expect(rig.store.outbox.claim().flatMap((b) => b.transitionIds)).toEqual([later[0]!.id]);
    rig.settings.notifications.enabled = false;
    const off = rig.engine.observe([msg({ from: me, status: 'delivered' })], 'mainnet');
    expect(off.every((t) => t.notify === false)).toBe(true);
  });
});
