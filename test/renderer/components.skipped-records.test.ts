// @vitest-environment happy-dom
/**
 * The poll status bar says when the data source sent records that were skipped at the boundary (issue
 * 41): how many, why, and (in its title) the latest one's message and field. A real core on the real
 * local service meets a record whose source time is in milliseconds.
 */
import { describe, expect, it } from 'vitest';
import { apiRecord } from '../core/helpers';
import { statusBarWatching, until } from './real-core';

describe('PollStatusBar and skipped records', () => {
  it('shows nothing while every record is usable, then how many were skipped and why', async () => {
    const ctx = await statusBarWatching();
    const { address, w: wrapper } = ctx;
    expect(wrapper.find('[data-testid="poll-skipped-records"]').exists()).toBe(false);

    const bad = apiRecord({ from: address, status: 'pending' });
    (bad.sourceTransaction as { timestamp: number }).timestamp = ctx.clock.now(); // milliseconds
    ctx.service.store.upsert(bad);
    await ctx.clock.advance(30_000);
    await ctx.poll();
    await until(() => expect(wrapper.get('[data-testid="poll-skipped-records"]').text()).toBe('skipped 1 record: timestamp out of range'));
    const title = wrapper.get('[data-testid="poll-skipped-records"]').attributes('title')!;
    expect(title).toContain(`message ${bad.messageId as string}, field sourceTransaction.timestamp (timestamp out of range)`);
    expect(title).toContain('never stored');
  });
});
