/**
 * A failed execution retried long after its receipt came back (src/core/watch/retry-follow.ts): the
 * real core and service, a watched route at a failed-execution threshold of 1. Its receipt is back a
 * few seconds after the delivery, and 600 messages follow it on the route; someone calls retryMessageExecution 40 min later (the record turns
 * `messageExecuted: true` in the service's store). The core still follows the message, reads the
 * retry at its next re-check and resolves the alert minutes later, not when the failure ages out of
 * the hour; an hour after the delivery it stops following it, with no reason to show.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ActivityPage, AlertEntry, CachedMessage } from '../../../src/shared/contract';
import { serviceAndCore } from '../core-on-service';

const MIN = 60_000;
const C_CHAIN = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
const BEAM = '2tmrrBo1Lgt1mzzvPSFt73kkQKFas5d1AP88tv9cicwoFp8BSn';

describe('a failed execution retried after its receipt', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('is read when retried and resolves the alert within minutes; followed no longer than the hour', { timeout: 120_000 }, async () => {
    const start = Date.UTC(2026, 0, 1, 12);
    const { svc, core, clock } = await serviceAndCore({ rate: 0, warmStore: false, addressCount: 10 }, cleanups, start);
    const call = async <T>(method: string, input?: unknown): Promise<T> => {
      const r = await core.invoke(method, input);
      if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
      return r.value as T;
    };
    await call('addRoute', { source: C_CHAIN, destination: BEAM, label: 'c-to-beam' });
    await call('updateSettings', { routeFailedExecutionsPerHour: 1 });
    await call('pollNow');
    const id = svc.simulator.send({ outcome: 'normal', source: C_CHAIN, destination: BEAM, executed: false, deliveryDelayMs: 3_000, receiptDelayMs: 10_000 });
    const alerts = async () =>
      (await call<ActivityPage>('listActivity', { kinds: [], limit: 50 })).items.filter((i): i is AlertEntry => i.kind === 'alert').reverse();
    const cached = async () => (await call<CachedMessage | null>('getMessage', { messageId: id }))!;
    // Polls every 30 s until `until` (ms after the start).
    const pollUntil = async (until: number) => {
      while (clock.now() - start < until) {
        await clock.advance(30_000);
        await call('pollNow');
      }
    };
    await pollUntil(3 * MIN);
    expect((await alerts()).map((a) => a.phase)).toEqual(['fire']);
    const before = await cached();
    expect(before.message).toMatchObject({ status: 'delivered', receiptDelivered: true, messageExecuted: false });

    // Traffic on the route since: the failed message is no longer near the head of its list, where a read of the route sees changes.
    for (let i = 0; i < 600; i++) {
      await clock.advance(1_000);
      svc.simulator.send({ outcome: 'normal', source: C_CHAIN, destination: BEAM, executed: true, deliveryDelayMs: 3_000, receiptDelayMs: 10_000 });
    }
    // 40 min after the delivery, the retry: the same record, executed.
    await pollUntil(40 * MIN);
    const record = svc.store.get(id)!;
    svc.store.upsert({ ...record, messageExecuted: true });
    const retriedAt = clock.now();
    await pollUntil(56 * MIN);
    const resolved = (await alerts()).find((a) => a.phase === 'resolve');
    expect(resolved?.title).toBe('Failed executions back under the threshold: c-to-beam');
    // At its re-check (a quarter of its age: about 10 min at 40 min old), not when the failure leaves the hour.
    expect(resolved!.at - retriedAt).toBeLessThanOrEqual(13 * MIN);
    expect(resolved!.at - start).toBeLessThan(59 * MIN);

    // An hour after its delivery it is no longer followed, and says no reason (nothing of it is open).
    await pollUntil(65 * MIN);
    const after = await cached();
    expect(after.trackingEnded).toBeUndefined();
    expect((await call<{ tracked: number }>('getPollStatus')).tracked).toBe(0);
  });
});
