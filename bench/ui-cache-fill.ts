/**
 * Fills the monitor's local message cache for the UI benchmark: the local service's simulator writes
 * realistic history (its fast preload path), and the core's own transition engine ingests it as a
 * silent baseline of saved feeds (one per source chain), exactly as polling would store it.
 */
import { chainsOf } from '../src/shared/chains';
import { DEFAULT_NOTIFY } from '../src/shared/contract';
import { systemClock } from '../src/shared/clock';
import { parseMessage, type TeleporterMessage } from '../src/shared/messages';
import { openStore } from '../src/core/store';
import { TransitionEngine } from '../src/core/watch/engine';
import { WatcherIndex } from '../src/core/watch/watcher-index';
import type { SimulatedService } from '../src/local-service';

const BATCH = 5_000;

/** Returns how many messages the cache holds afterwards. */
export function fillMonitorCache(dataDir: string, service: SimulatedService): number {
  const store = openStore(dataDir);
  try {
    const now = systemClock.now();
    const notify = { ...DEFAULT_NOTIFY, left_pending: false, receipt_delivered: false, stuck: false };
    for (const network of ['mainnet', 'fuji'] as const) {
      for (const chain of chainsOf(network)) {
        store.watches.addFeed({ name: `From ${chain.name}`, network, filter: { sourceBlockchainId: chain.blockchainId }, notify, createdAt: now });
      }
    }
    const infos = store.watches.watcherInfos();
    const engine = new TransitionEngine(store, systemClock, new WatcherIndex(store.watches), () => store.settings.get());
    const baselineFor = new Set(infos.feeds.map((f) => f.key));
    for (const network of ['mainnet', 'fuji'] as const) {
      let before: number | undefined;
      for (;;) {
        const page = service.store.page({ network }, before, BATCH);
        const messages = page.records.map((r) => parseMessage(JSON.parse(r))).filter((m): m is TeleporterMessage => m !== null);
        engine.observe(messages, network, { baselineFor });
        if (!page.hasMore) break;
        before = page.positions[page.positions.length - 1];
      }
    }
    for (const f of infos.feeds) store.watches.finishBaseline(f.key, null);
    // searchCache caps its count, so count the cache table itself.
    return (store.db.prepare('SELECT COUNT(*) AS n FROM messages').get() as { n: number }).n;
  } finally {
    store.close();
  }
}
