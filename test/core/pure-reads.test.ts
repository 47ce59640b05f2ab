import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/store';
import type { MonitorEvent } from '../../src/shared/contract';
import { serviceAndCore } from './core-on-service';

/** Everything a person can see or be told about: the cache, who watches what, the log, the outbox. */
const VISIBLE = [
  'messages',
  'message_watchers',
  'transitions',
  'alert_entries',
  'relayer_episodes',
  'outbox',
  'watches',
  'feeds',
  'alert_deliveries',
  'relayer_watches',
  'route_watches',
  'relayer_fuel',
];

describe('reads are pure', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('browsing, opening and searching leave the database and the outbox as they were, and emit nothing', async () => {
    const { svc, core, clock, dataDir } = await serviceAndCore({ rate: 0, warmStore: false, addressCount: 10 }, cleanups, Date.UTC(2026, 0, 1, 12));
    const call = async (method: string, input?: unknown) => {
      const r = await core.invoke(method, input);
      if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
      return r.value;
    };

    const address = svc.simulator.addresses[0]!;
    await call('addWatch', { address, notify: { new: true, left_pending: true, receipt_delivered: true, stuck: true } });
    await call('addFeed', { name: 'from it', filter: { from: address } });
    await call('addRoute', { source: 'C-Chain', destination: 'Beam' });
    await call('addRelayer', { address: svc.simulator.relayers[0] });
    await call('pollNow');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      await clock.advance(1000);
      ids.push(
        svc.simulator.send({ outcome: 'normal', destination: '2tmrrBo1Lgt1mzzvPSFt73kkQKFas5d1AP88tv9cicwoFp8BSn', from: address, deliveryDelayMs: 60_000 }),
      );
    }
    await clock.advance(1000);
    await call('pollNow');
    // Delivered at the source now, but not yet polled: a read that observed it would log left_pending.
    await clock.advance(5 * 60_000);

    const db = openDatabase(dataDir);
    cleanups.push(() => db.close());
    const snapshot = () => Object.fromEntries(VISIBLE.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY 1`).all()]));
    const before = snapshot();
    expect((before.transitions as unknown[]).length).toBeGreaterThanOrEqual(3);
    const events: MonitorEvent[] = [];
    core.onEvent((e) => events.push(e));

    const browsed = (await call('browseMessages', { pageSize: 10 })) as { messages: { messageId: string; status: string }[] };
    expect(browsed.messages.filter((m) => ids.includes(m.messageId)).map((m) => m.status)).toEqual(['delivered', 'delivered', 'delivered']);
    await call('browseAddressMessages', { address, pageSize: 10 });
    await call('getMessage', { messageId: ids[0] });
    await call('findMessage', { messageId: ids[1] });
    await call('searchCache', { text: address.slice(2, 10) });
    await call('listTransitions', { limit: 100 });
    await call('listActivity', { limit: 100 });
    await call('listWatches');
    await call('listFeeds');
    await call('getStats', { hours: 24 });
    await call('listRelayers');
    await call('listRoutes');
    await call('relayerOverview');
    await call('relayerFigureMessages', { relayer: svc.simulator.relayers[0], figure: 'deliveries24h' });
    await call('relayerEconomics');
    await call('alertChannelStates');
    await call('getPollStatus');

    expect(snapshot()).toEqual(before);
    expect(events.filter((e) => e.type === 'transitions' || e.type === 'alerts' || e.type === 'notification' || e.type === 'watchlist-changed')).toEqual([]);

    // The change is still there to be found: the next poll logs it, once, in one batch.
    await call('pollNow');
    const batches = events.filter((e): e is Extract<MonitorEvent, { type: 'transitions' }> => e.type === 'transitions');
    expect(batches).toHaveLength(1);
    expect(
      batches[0]!.transitions
        .filter((t) => t.kind === 'left_pending')
        .map((t) => t.messageId)
        .sort(),
    ).toEqual([...ids].sort());
  });
});
