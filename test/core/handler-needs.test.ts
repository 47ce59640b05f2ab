/**
 * Each group of the contract's handlers (src/core/handlers/*-handlers.ts) gets only what it declares:
 * reaching an undeclared dependency does not compile (the `@ts-expect-error` lines below are checked
 * by `npm run typecheck`), and a group runs on a real SQLite store with nothing but its needs.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/core/store';
import { createWatchlistHandlers, type WatchlistNeeds } from '../../src/core/handlers/watchlist-handlers';
import { importWatches } from '../../src/core/handlers/watchlist-import';
import type { MessageNeeds } from '../../src/core/handlers/message-handlers';
import type { StatusNeeds } from '../../src/core/handlers/status-handlers';
import type { MonitorEvent } from '../../src/shared/contract';
import { systemClock } from '../../src/shared/clock';
import { randomAddress, tempDir } from './helpers';

const NOW = 1_700_000_000_000;

describe('handler groups', () => {
  const tmp = tempDir();
  let store: Store;
  beforeEach(() => {
    store = openStore(tmp.dir);
  });
  afterEach(() => {
    store.close();
    tmp.cleanup();
  });

  it('the watchlist group and the watchlist import work on their declared needs alone', () => {
    const events: MonitorEvent[] = [];
    let cycles = 0;
    const needs: WatchlistNeeds = {
      store: { watches: store.watches, db: store.db },
      settings: () => store.settings.get(),
      clock: { ...systemClock, now: () => NOW },
      emit: (e) => events.push(e),
      poller: {
        runCycle: async () => {
          cycles++;
        },
      },
    };
    const handlers = createWatchlistHandlers(needs);
    const address = randomAddress();
    const watch = handlers.addWatch({ address, label: ' ours ' });
    expect(watch).toMatchObject({ address, label: 'ours', createdAt: NOW, network: store.settings.get().network });
    expect(events).toEqual([{ type: 'watchlist-changed' }]);
    expect(cycles).toBe(1);
    expect(() => handlers.addWatch({ address })).toThrow(/already on the watchlist/);

    // The import shares the group's needs: one event and one cycle for the batch, the known address left as it is.
    expect(importWatches(needs, [{ address: randomAddress() }, { address }])).toBe(1);
    expect(store.watches.listWatches()).toHaveLength(2);
    expect(events).toHaveLength(2);
    expect(cycles).toBe(2);
  });

  it('a group cannot reach what it did not declare (the type check fails otherwise)', () => {
    const reach = {
      // @ts-expect-error: the status handlers did not declare the key store
      status: (n: StatusNeeds) => n.keys,
      // @ts-expect-error: the message handlers read the cache; the watchlist is not theirs to change
      messages: (n: MessageNeeds) => n.store.watches,
      // @ts-expect-error: the watchlist handlers did not declare the data sources
      watchlist: (n: WatchlistNeeds) => n.sources,
    };
    // Never called: what this proves is that each line above does not compile (an unused @ts-expect-error fails the type check).
    expect(Object.keys(reach)).toEqual(['status', 'messages', 'watchlist']);
  });
});
