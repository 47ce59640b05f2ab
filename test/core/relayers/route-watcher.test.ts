import { afterEach, describe, expect, it } from 'vitest';
import { openStore, searchTextOf } from '../../../src/core/store';
import { WatcherIndex } from '../../../src/core/watch/watcher-index';
import { parseMessage, type TeleporterMessage } from '../../../src/shared/messages';
import { apiRecord, BEAM, C_CHAIN, tempDir } from '../helpers';
import { watchCBeamRoute } from './records';

describe('a watched route as a watcher', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((c) => c()));

  it('is in the index as route:<id> filtered on its two chains, takes a baseline, and its removal forgets its links', () => {
    const tmp = tempDir();
    const store = openStore(tmp.dir);
    cleanups.push(tmp.cleanup, () => store.close());
    const index = new WatcherIndex(store.watches);
    const route = watchCBeamRoute(store.relayerWatches);
    const key = `route:${route.id}`;
    expect(index.feedList()).toEqual([
      expect.objectContaining({ key, baselineDone: false, filter: { sourceBlockchainId: C_CHAIN, destinationBlockchainId: BEAM } }),
    ]);
    // It never asks for a per-message notification.
    expect(Object.values(index.get(key)!.notify).some(Boolean)).toBe(false);
    store.watches.finishBaseline(key, 123);
    expect(index.get(key)).toMatchObject({ baselineDone: true, baselineFloor: 123 });

    // A message on the route belongs to it; one on the way back does not.
    const onRoute = (source: string, destination: string): Record<string, unknown> => ({
      ...apiRecord({ status: 'pending' }),
      sourceBlockchainId: source,
      destinationBlockchainId: destination,
    });
    const raw = onRoute(C_CHAIN, BEAM);
    const m = parseMessage(raw) as TeleporterMessage;
    const back = parseMessage(onRoute(BEAM, C_CHAIN)) as TeleporterMessage;
    expect(index.watchersOf(m, 'mainnet').map((w) => w.key)).toEqual([key]);
    expect(index.watchersOf(back, 'mainnet')).toEqual([]);

    store.messages.insert({
      messageId: m.messageId,
      network: 'mainnet',
      status: 'pending',
      receiptDelivered: false,
      from: String(raw.from),
      to: String(raw.to),
      sourceChain: C_CHAIN,
      destinationChain: BEAM,
      sourceTs: null,
      destinationTs: null,
      raw: JSON.stringify(raw),
      searchText: searchTextOf(m, raw),
      seenAt: 0,
      tracked: true,
      pendingSince: 0,
      stuckFired: false,
      source: 'local',
    });
    store.messageWatchers.add(m.messageId, key, 0, false);
    expect(store.messages.get(m.messageId)!.watchedAddresses).toEqual([]); // a route is not an address

    expect(store.relayerWatches.removeRoute(route.id)).toBe(true);
    expect(index.feedList()).toEqual([]);
    expect(store.messageWatchers.of(m.messageId)).toEqual([]);
    expect(store.messages.state(m.messageId)!.tracked).toBe(false); // nobody watches it: no more re-checks
  });
});
