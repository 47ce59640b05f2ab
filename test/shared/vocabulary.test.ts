import { describe, expect, it } from 'vitest';
import { notificationText } from '../../src/core/watch/notification-text';
import { routeLabel } from '../../src/shared/chains';
import { statusTag } from '../../src/renderer/src/logic/message-view';
import { ARROW, changeWords, statusWord, TRANSITION_WORDS } from '../../src/shared/vocabulary';

const C = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
const base = {
  messageId: '0x' + 'ab'.repeat(32),
  at: 0,
  network: 'mainnet' as const,
  source: 'local',
  sourceBlockchainId: C,
  destinationBlockchainId: C,
  watchers: [],
};

describe('one vocabulary', () => {
  it('names a status the same way in a tag, a change and a notification', () => {
    const word = statusWord('delivered_source_not_indexed');
    expect(word).toBe('delivered (source not indexed)');
    expect(statusTag('delivered_source_not_indexed').label).toBe(word);
    expect(changeWords({ kind: 'left_pending', fromStatus: 'pending', toStatus: 'delivered_source_not_indexed' })).toBe(`pending ${ARROW} ${word}`);
    expect(statusWord('weird')).toBe('unknown: weird');
  });

  it('says "receipt delivered" for a receipt, never "delivered → delivered"', () => {
    expect(changeWords({ kind: 'receipt_delivered', fromStatus: 'delivered', toStatus: 'delivered' })).toBe('receipt delivered');
  });

  it('titles notifications with the words the toasts and Activity use, and routes with →', () => {
    expect(notificationText({ ...base, kind: 'left_pending', fromStatus: 'pending', toStatus: 'delivered' }, 0, null).title).toBe(
      TRANSITION_WORDS.left_pending.title,
    );
    expect(notificationText({ ...base, kind: 'stuck', fromStatus: 'pending', toStatus: 'pending' }, 0, null).title).toBe(TRANSITION_WORDS.stuck.title);
    expect(notificationText({ ...base, kind: 'new', fromStatus: null, toStatus: 'pending' }, 0, null).body).toContain(` ${ARROW} `);
    expect(routeLabel(C, C)).toBe(`C-Chain ${ARROW} C-Chain`);
  });
});
