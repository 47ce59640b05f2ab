/**
 * How long a route's messages are followed: until their receipt, like an address's (a route's relayer
 * is paid or owed its reward by the receipt: bench:fuel judged the paid / owed split wrong while a
 * route's message was let go at its delivery); a route announces nothing per message either way.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseMessage, type TeleporterMessage } from '../../../src/shared/messages';
import { apiRecord, engineRig, tempDir, type EngineRig } from '../helpers';
import { watchCBeamRoute } from './records';

describe('following a watched route', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((c) => c()));

  function rigWithRoute(): EngineRig {
    const tmp = tempDir();
    const rig = engineRig(tmp.dir);
    cleanups.push(tmp.cleanup, () => rig.close());
    const route = watchCBeamRoute(rig.store.relayerWatches);
    rig.store.watches.finishBaseline(`route:${route.id}`, null);
    return rig;
  }
  const observe = (rig: EngineRig, raw: Record<string, unknown>) => rig.engine.observe([parseMessage(raw) as TeleporterMessage], 'mainnet');

  it('follows a message only a route watches until its receipt, silently', () => {
    const rig = rigWithRoute();
    const pending = apiRecord({ status: 'pending' });
    const id = pending.messageId as string;
    const from = pending.from as string;
    const to = pending.to as string;
    expect(observe(rig, pending)).toEqual([]); // a route announces nothing per message
    expect(rig.store.messages.state(id)).toMatchObject({ status: 'pending', tracked: true });
    expect(observe(rig, apiRecord({ id, status: 'delivered', from, to }))).toEqual([]);
    expect(rig.store.messages.state(id)).toMatchObject({ status: 'delivered', receiptDelivered: false, tracked: true });
    expect(observe(rig, apiRecord({ id, status: 'delivered', from, to, receiptDelivered: true }))).toEqual([]);
    expect(rig.store.messages.state(id)).toMatchObject({ receiptDelivered: true, tracked: false });
  });

  it('follows a message an address also watches until its receipt', () => {
    const rig = rigWithRoute();
    const from = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf';
    rig.watch(from);
    const pending = apiRecord({ status: 'pending', from });
    const id = pending.messageId as string;
    expect(observe(rig, pending).map((t) => t.kind)).toEqual(['new']);
    observe(rig, apiRecord({ id, status: 'delivered', from, to: pending.to as string }));
    expect(rig.store.messages.state(id)).toMatchObject({ status: 'delivered', receiptDelivered: false, tracked: true });
    observe(rig, apiRecord({ id, status: 'delivered', from, to: pending.to as string, receiptDelivered: true }));
    expect(rig.store.messages.state(id)).toMatchObject({ receiptDelivered: true, tracked: false });
  });
});
