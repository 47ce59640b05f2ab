import { afterEach, describe, expect, it } from 'vitest';
import { RelayerFigures } from '../../../src/core/relayers/relayer-figures';
import { openStore, type Store } from '../../../src/core/store';
import { randomAddress, tempDir } from '../helpers';
import { rowOfRecord } from '../store/store-rig';
import { deliveryRecord, NOW } from './records';

const HOUR = 3_600_000;

/** Writes a record into the cache the way the engine stores it. */
function keep(store: Store, raw: Record<string, unknown>): string {
  const row = rowOfRecord(raw, { receiptDelivered: false, seenAt: NOW });
  store.messages.insert(row);
  return row.messageId;
}

describe('relayer figures from the cache', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((c) => c()));

  it("reads the last 24 h, and further back (up to 7 days) only for a watched relayer's last delivery", async () => {
    const tmp = tempDir();
    const store = openStore(tmp.dir);
    cleanups.push(tmp.cleanup, () => store.close());
    const quiet = randomAddress();
    const gone = randomAddress();
    const busy = randomAddress();
    store.relayerWatches.addRelayer({ address: quiet, label: 'q', network: 'mainnet', silentMinutes: 30, pendingMinutes: 10, alert: true, createdAt: 0 });
    store.relayerWatches.addRoute({
      label: '',
      network: 'mainnet',
      sourceChain: '43114',
      destinationChain: '4337',
      backlogMinutes: 30,
      alert: true,
      createdAt: 0,
    });
    const at = (deliverer: string, agoMs: number) => keep(store, deliveryRecord({ deliverer, sentAt: NOW - agoMs - 4000, deliveredAt: NOW - agoMs }));
    at(quiet, 3 * 24 * HOUR);
    at(quiet, 2 * 24 * HOUR); // its last delivery, two days ago
    at(quiet, 8 * 24 * HOUR); // beyond the look-back
    at(gone, 2 * 24 * HOUR); // not watched, nothing in 24 h: no row
    at(busy, HOUR / 2);
    const o = new RelayerFigures(store).overview(NOW);
    expect(o.relayers.map((r) => [r.address, r.deliveries24h, r.lastDeliveryAt])).toEqual([
      [quiet, 0, NOW - 2 * 24 * HOUR],
      [busy, 1, NOW - HOUR / 2],
    ]);
    expect(o.relayers[0]!.latency).toBeNull();
    expect(o.routes[0]).toMatchObject({ deliveries24h: 1, deliveriesLastHour: 1 });
  });
});
