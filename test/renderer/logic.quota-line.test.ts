/** The status bar's keep-up words: said only while the plan does not keep up, naming the plan that would. */
import { describe, expect, it } from 'vitest';
import type { PollStatus } from '../../src/shared/contract';
import { quotaLine } from '../../src/renderer/src/logic/quota-line';
import { keepUp } from '../../src/core/poller/keep-up';

const status = (k: PollStatus['keepUp']): PollStatus =>
  ({
    state: 'idle',
    tracked: 0,
    watching: 3,
    keepUp: k,
    quota: {
      plan: 'unauthenticated',
      cuPerDay: 1_200_000,
      spentCuToday: 0,
      requestsToday: 0,
      projectedCuToday: 0,
      runsOutAt: null,
      cuLastMinute: 0,
      level: 'ok',
    },
  }) as unknown as PollStatus;

describe('the keep-up line', () => {
  it('names the smallest published plan whose day pace pays the reads, none at all past every plan, nothing while it keeps up', () => {
    // 20 messages/s at a 30 s interval with an 11 min full overlap: 116 pages a cycle, 232 list calls a minute,
    // past the keyless (39), Free (65) and Base (123) day paces less the margin, within Growth's (369).
    const busy = keepUp(20, 30_000, 660);
    expect(busy).toEqual({ needPerMinute: 232, planThatWould: 'growth' });
    expect(quotaLine(status(busy))!.keepUp).toBe('busier than the plan keeps up with: nothing lost, up to 30 min late · the Growth plan would keep up');
    const flood = keepUp(2_000, 30_000, 660);
    expect(flood.planThatWould).toBeNull();
    expect(quotaLine(status(flood))!.keepUp).toMatch(/no plan would keep up$/);
    expect(quotaLine(status(null))!.keepUp).toBeNull();
    expect(keepUp(0.2, 30_000, 660).planThatWould).toBe('unauthenticated');
  });
});
