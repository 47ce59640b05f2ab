// @vitest-environment happy-dom
/**
 * The poll status bar says when records come later than the overlap guarantees (10 min): how late, and
 * past what a record is not followed. A real core on the real local service finds a record 20 min late.
 */
import { describe, expect, it } from 'vitest';
import { apiRecord } from '../core/helpers';
import { statusBarWatching, until } from './real-core';

describe('PollStatusBar and late records', () => {
  it('shows nothing while records come on time, then how late they come once one is later than 10 min', async () => {
    const ctx = await statusBarWatching();
    const { address, w: wrapper } = ctx;
    expect(wrapper.find('[data-testid="poll-late-records"]').exists()).toBe(false);

    // Sent 20 min ago, listed only now: the address's 30-min sweep finds it within 5 min.
    const late = apiRecord({ from: address, status: 'pending', ts: Math.floor(ctx.clock.now() / 1000) - 20 * 60 });
    ctx.service.store.upsert(late);
    const cached = async () => {
      const r = await ctx.core.invoke('getMessage', { messageId: late.messageId as string });
      return r.ok && r.value !== null;
    };
    for (let i = 0; i < 14 && !(await cached()); i++) {
      await ctx.clock.advance(30_000);
      await ctx.poll();
    }
    expect(await cached()).toBe(true);
    await until(() =>
      expect(wrapper.get('[data-testid="poll-late-records"]').text()).toMatch(/^records up to 2\d min late; later than 30 min are not followed$/),
    );
  });
});
