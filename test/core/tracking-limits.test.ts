/**
 * Nothing is tracked forever, nothing stops being tracked silently: a receipt still missing 24 h after
 * the delivery, or a message still pending 7 days after it was sent, is no longer tracked, and the
 * message says why (getMessage's `trackingEnded`) and the metrics count it. On a real SQLite store.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreMetrics } from '../../src/core/metrics/core-metrics';
import { MetricsQueries } from '../../src/core/store/metrics-queries';
import { PENDING_TRACKING_MS, RECEIPT_TRACKING_MS } from '../../src/core/watch/engine';
import { msg, randomAddress, randomId, watchingRig, type EngineRig } from './helpers';

let rig: EngineRig;
let cleanup: () => void;
const me = randomAddress();
beforeEach(() => {
  ({ rig, cleanup } = watchingRig(me));
});
afterEach(() => {
  rig.close();
  cleanup();
});

const metricsText = () =>
  new CoreMetrics({
    queries: new MetricsQueries(rig.store.db, () => rig.store.source()),
  }).text();

describe('tracking limits', () => {
  it('a receipt missing 24 h after the delivery ends tracking, however often the message was re-checked, and says so', async () => {
    const id = randomId();
    const ts = Math.floor(rig.clock.now() / 1000);
    const delivered = () => msg({ id, from: me, status: 'delivered', ts });
    rig.engine.observe([delivered()], 'mainnet');
    expect(rig.store.messages.state(id)?.tracked).toBe(true);
    // Re-checked every hour (each sighting is recent): the wait still counts from the delivery (ts + 10 s).
    for (let h = 0; h < 23; h++) {
      await rig.clock.advance(3600_000);
      rig.engine.observe([delivered()], 'mainnet');
      rig.engine.sweep();
    }
    expect(rig.store.messages.state(id)?.tracked).toBe(true);
    expect(rig.store.messages.get(id)?.trackingEnded).toBeUndefined();
    await rig.clock.advance(RECEIPT_TRACKING_MS - 23 * 3600_000 + 10_000);
    rig.engine.observe([delivered()], 'mainnet');
    expect(rig.engine.sweep()).toEqual([]);
    expect(rig.store.messages.state(id)?.tracked).toBe(false);
    expect(rig.store.messages.get(id)?.trackingEnded).toEqual({ reason: 'receipt_missing', at: rig.clock.now(), afterHours: 24 });
    expect(await metricsText()).toMatch(/^teleporter_watch_tracking_ended_messages\{reason="receipt_missing"\} 1$/m);
  });

  it('a message pending 7 days ends tracking after its stuck transition, and says so', async () => {
    rig.settings.stuckThresholdMinutes = 30;
    const id = randomId();
    const ts = Math.floor(rig.clock.now() / 1000);
    rig.engine.observe([msg({ id, from: me, status: 'pending', ts })], 'mainnet');
    await rig.clock.advance(31 * 60_000);
    expect(rig.engine.sweep().map((t) => t.kind)).toEqual(['stuck']);
    await rig.clock.advance(PENDING_TRACKING_MS - 32 * 60_000);
    rig.engine.sweep();
    expect(rig.store.messages.state(id)?.tracked).toBe(true);
    await rig.clock.advance(2 * 60_000);
    expect(rig.engine.sweep()).toEqual([]);
    expect(rig.store.messages.state(id)?.tracked).toBe(false);
    expect(rig.store.messages.get(id)?.trackingEnded).toEqual({ reason: 'pending_too_long', at: rig.clock.now(), afterHours: 7 * 24 });
    expect(await metricsText()).toMatch(/^teleporter_watch_tracking_ended_messages\{reason="pending_too_long"\} 1$/m);
    expect(await metricsText()).not.toMatch(/reason="receipt_missing"/);
  });
});
