import type { WatcherRef } from '../../shared/contract';

/**
 * How the database names a watcher (message_watchers.watcher, transitions.watchers): an address as
 * itself, a saved feed as `feed:<id>`. The encoding stays inside the core: the contract speaks WatcherRef.
 */
const FEED_PREFIX = 'feed:';

export const feedKey = (id: string): string => `${FEED_PREFIX}${id}`;

export const isFeedKey = (key: string): boolean => key.startsWith(FEED_PREFIX);

export const watcherRef = (key: string): WatcherRef =>
  isFeedKey(key) ? { kind: 'feed', feedId: key.slice(FEED_PREFIX.length) } : { kind: 'address', address: key };

export const watcherKey = (ref: WatcherRef): string => (ref.kind === 'feed' ? feedKey(ref.feedId) : ref.address);
