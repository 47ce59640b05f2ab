/**
 * The world moves while a client reads: records appear and change between the pages of one walk.
 * Page tokens are keyset cursors (a record's position never changes unless its sort timestamp does),
 * so a walk never fails and never returns a record twice. What it shows of the news:
 * - a record appearing ABOVE the cursor (newer than the last record read) is not on a later page of
 *   this walk: the next read from the head shows it;
 * - a record appearing BELOW the cursor (a late record, older than the last record read) is on a later
 *   page of the same walk;
 * - a record already read that changes (delivered, receipt) keeps its place and is not returned again.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { get, query, serve, type Page } from './helpers';

const START = Date.UTC(2026, 0, 1);

describe('a walk while the world moves', () => {
  it.each([
    { profile: 'plain', realistic: false },
    { profile: 'realistic', realistic: true },
  ])('$profile: finds a late record on a later page, leaves a new one to the next read from the head, and returns nothing twice', async ({ realistic }) => {
    const clock = new ManualClock(START);
    const s = await serve({ clock, realistic });
    const base = `${s.url}/v1/teleporter/messages`;
    const sent: string[] = [];
    let late = '';
    for (let i = 0; i < 10; i++) {
      sent.push(s.simulator.send({ network: 'fuji', outcome: 'normal', deliveryDelayMs: 3_000, lagMs: 0 }));
      if (i === 4) late = s.simulator.send({ network: 'fuji', outcome: 'normal', deliveryDelayMs: 3_000, lagMs: 60_000 });
      await clock.advance(1_000);
    }
    const page = async (token?: string) => (await get(base + query({ pageSize: 4, pageToken: token }))).json as Page;
    const first = await page();
    expect(first.messages.map((m) => m.messageId)).toEqual(sent.slice(6).reverse());
    // Between two pages of one walk: the late record (sent at second 4) appears, a new one is sent, and records already read are delivered.
    expect(s.store.get(late)).toBeUndefined();
    await clock.advance(55_000);
    const fresh = s.simulator.send({ network: 'fuji', outcome: 'normal', lagMs: 0 });
    expect(s.store.get(late)?.status).toBe('pending'); // its delivery is late too (lagMs applies to every change)
    for (const m of first.messages) expect(s.store.get(m.messageId as string)?.status).toBe('delivered');
    const rest: string[] = [];
    for (let token = first.nextPageToken; token;) {
      const p = await page(token);
      rest.push(...p.messages.map((m) => m.messageId as string));
      token = p.nextPageToken;
    }
    const walked = [...first.messages.map((m) => m.messageId as string), ...rest];
    expect(new Set(walked).size).toBe(walked.length);
    expect(rest).toContain(late);
    expect(rest).not.toContain(fresh);
    expect(walked).toHaveLength(11);
    // The next read from the head starts with the new record.
    expect((await page()).messages[0]!.messageId).toBe(fresh);
  });
});
