/**
 * Issue 41, "one answer can blind it": a custom Data API server sends one record whose source
 * timestamp is in milliseconds among good ones. The record is skipped at the boundary (never stored),
 * counted under its reason in the poll status and /metrics, logged once; polling goes on and the other
 * watch's transitions arrive exactly once, also after the server stops sending it; the cache search
 * and Charts keep answering.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PollStatus } from '../../src/shared/contract';
import { customSourceCore } from './custom-source-core';
import { apiRecord, randomAddress } from './helpers';
import type { JumpClock } from './http-helpers';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const lower = (a: string) => a.toLowerCase();
const nowS = (clock: JumpClock) => Math.floor(clock.now() / 1000);

describe('a record whose timestamp is in milliseconds', () => {
  it('is skipped and counted; polling goes on and the other watch hears each change once', async () => {
    const r = await customSourceCore(cleanups);
    const good = randomAddress();
    const poisoned = randomAddress();
    const serve = (body: Record<string, unknown>, owner: string, sortTs: number) => r.api.records.push({ body, sortTs, owners: [lower(owner)] });
    const g1 = apiRecord({ from: good, status: 'pending', ts: nowS(r.clock) - 60 });
    serve(g1, good, nowS(r.clock) - 60);
    const bad = apiRecord({ from: poisoned, status: 'pending', ts: nowS(r.clock) - 30 });
    (bad.sourceTransaction as { timestamp: number }).timestamp = r.clock.now() - 30_000; // 1767225570000: milliseconds
    serve(bad, poisoned, nowS(r.clock) - 30);

    await r.call('addWatch', { address: good });
    await r.call('addWatch', { address: poisoned });
    const first = await r.poll();
    expect(first.lastError).toBeNull();

    await r.clock.advance(30_000);
    // News for the good watch: a new message, and its first one delivered.
    const g2 = apiRecord({ from: good, status: 'pending', ts: nowS(r.clock) });
    serve(g2, good, nowS(r.clock));
    const delivered = apiRecord({ id: g1.messageId as string, from: good, status: 'delivered', ts: nowS(r.clock) - 90 });
    r.api.records[0] = { body: delivered, sortTs: nowS(r.clock) - 90, owners: [lower(good)] };
    const second = await r.poll();
    expect(second.lastError).toBeNull();
    expect(second.state).toBe('idle');
    await r.clock.advance(30_000);
    const third = await r.poll();
    expect(third.lastError).toBeNull();
    expect(r.announced.filter((k) => k.startsWith(g1.messageId as string)).sort()).toEqual([`${g1.messageId as string}:left_pending`]);
    expect(r.announced.filter((k) => k.startsWith(g2.messageId as string))).toEqual([`${g2.messageId as string}:new`]);

    // Never stored; skipped with its reason in the status, the metric and one log line.
    expect(await r.call('getMessage', { messageId: bad.messageId })).toBeNull();
    expect(third.skippedRecords?.byReason.timestamp_out_of_range).toBeGreaterThanOrEqual(2);
    expect(third.skippedRecords?.total).toBe(third.skippedRecords?.byReason.timestamp_out_of_range);
    const metrics = await r.core.metrics!.text();
    expect(metrics).toMatch(/teleporter_watch_skipped_records_total\{reason="timestamp_out_of_range",source="127\.0\.0\.1:\d+"\} [2-9]/);
    expect(r.lines.filter((l) => l.includes('timestamp_out_of_range'))).toHaveLength(1);

    // The server stops sending it: nothing was kept that could fail a later read.
    r.api.records.splice(
      r.api.records.findIndex((x) => x.body === bad),
      1,
    );
    await r.clock.advance(30_000);
    expect((await r.poll()).lastError).toBeNull();
    const found = await r.call<{ items: { messageId: string }[] }>('searchCache', { text: '' });
    expect(found.items.map((i) => i.messageId).sort()).toEqual([g1.messageId, g2.messageId].sort());
    await r.call('getStats', { hours: 24 });
  });

  it('asked for by ID, is skipped with its reason, never stored', async () => {
    const r = await customSourceCore(cleanups);
    const bad = apiRecord({ status: 'pending' });
    (bad.sourceTransaction as { timestamp: number }).timestamp = r.clock.now();
    r.api.records.push({ body: bad, sortTs: nowS(r.clock), owners: [] });
    const res = await r.core.invoke('findMessage', { messageId: bad.messageId });
    expect(res).toMatchObject({ ok: false, error: { kind: 'invalid_response', message: expect.stringMatching(/timestamp out of range.*skipped/) } });
    expect(await r.call('getMessage', { messageId: bad.messageId })).toBeNull();
    expect((await r.call<PollStatus>('getPollStatus')).skippedRecords?.byReason.timestamp_out_of_range).toBe(1);
  });
});
