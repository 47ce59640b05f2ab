import { z } from 'zod';
import { MonitorError } from '../../shared/errors';
import { WatchInputSchema } from '../../shared/schemas';
import { defaultNotify, type WatchlistNeeds } from './watchlist-handlers';

const WatchListSchema = z.array(WatchInputSchema).max(100_000);

/**
 * Adds many watches at once (the headless config's watchlist): one transaction, one watchlist-changed event
 * and one poll cycle for all of them (the watcher index rebuilds once, on its next use).
 * Addresses already watched are left as they are. Returns how many were added.
 */
export function importWatches(ctx: WatchlistNeeds, input: unknown): number {
  const parsed = WatchListSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MonitorError({ kind: 'invalid_input', message: `Watch ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}` });
  }
  const s = ctx.settings();
  const now = ctx.clock.now();
  let added = 0;
  ctx.store.db.transaction(() => {
    for (const w of parsed.data) {
      if (
        ctx.store.watches.addWatch({
          address: w.address,
          label: w.label?.trim() ?? '',
          network: w.network ?? s.network,
          notify: defaultNotify(s, w.notify),
          createdAt: now,
        })
      )
        added++;
    }
  })();
  if (added) {
    ctx.emit({ type: 'watchlist-changed' });
    void ctx.poller.runCycle();
  }
  return added;
}
