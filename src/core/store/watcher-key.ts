import type { WatcherRef } from '../../shared/contract';

/**
 * How the database names a watcher (message_watchers.watcher, transitions.watchers): an address as
 * itself, a saved feed as `feed:<id>`, a watched route as `route:<id>`. The encoding stays inside the
 * core: the contract speaks WatcherRef (a route never reaches it: its messages make no transitions).
 */
const FEED_PREFIX = 'feed:';
const ROUTE_PREFIX = 'route:';

export const feedKey = (id: string): string => `${FEED_PREFIX}${id}`;

const isFeedKey = (key: string): boolean => key.startsWith(FEED_PREFIX);

export const routeKey = (id: string): string => `${ROUTE_PREFIX}${id}`;

export const isRouteKey = (key: string): boolean => key.startsWith(ROUTE_PREFIX);

export const routeIdOf = (key: string): string => key.slice(ROUTE_PREFIX.length);

/** An address watch (not a feed, not a route). */
export const isAddressKey = (key: string): boolean => !isFeedKey(key) && !isRouteKey(key);

export const watcherRef = (key: string): WatcherRef =>
  isFeedKey(key) ? { kind: 'feed', feedId: key.slice(FEED_PREFIX.length) } : { kind: 'address', address: key };

export const watcherKey = (ref: WatcherRef): string => (ref.kind === 'feed' ? feedKey(ref.feedId) : ref.address);
