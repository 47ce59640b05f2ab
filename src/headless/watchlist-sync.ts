/**
 * Makes the core's watchlist and feeds what the config file says: missing ones are added, changed
 * ones updated (or re-added when their network or filter changed), and ones no longer listed removed.
 * What stays unchanged keeps its baseline, so a restart repeats nothing.
 */
import type { MonitorCore } from '../core';
import { ownChainsOf, routeLabel } from '../shared/chains';
import { resolveRouteInput, routeIdentity } from '../shared/chain-input';
import type { FeedFilter, MonitorMethod, NotifyPrefs, SavedFeed, Settings, WatchedAddress } from '../shared/contract';
import type { WatchedRelayer, WatchedRoute } from '../shared/relayers';
import type { RelayerOwnView } from '../shared/relayer-own-view';
import type { Network } from '../shared/validators';
import type { HeadlessConfig } from './config-schema';

async function call<T>(core: MonitorCore, method: MonitorMethod, input?: unknown): Promise<T> {
  const r = await core.invoke(method, input);
  if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
  return r.value as T;
}

const sameNotify = (a: NotifyPrefs, b: Partial<NotifyPrefs> | undefined) => !b || Object.entries(b).every(([k, v]) => a[k as keyof NotifyPrefs] === v);
const filterKey = (f: FeedFilter) =>
  JSON.stringify(
    Object.entries(f)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => a.localeCompare(b)),
  );

export interface SyncResult {
  added: number;
  updated: number;
  removed: number;
}

export async function syncWatchlist(core: MonitorCore, config: HeadlessConfig, defaultNetwork: string): Promise<SyncResult> {
  const r: SyncResult = { added: 0, updated: 0, removed: 0 };
  const have = new Map((await call<WatchedAddress[]>(core, 'listWatches')).map((w) => [w.address.toLowerCase(), w]));
  const want = new Set<string>();
  const fresh: HeadlessConfig['watches'] = [];
  for (const w of config.watches) {
    const k = w.address.toLowerCase();
    want.add(k);
    const cur = have.get(k);
    const network = w.network ?? defaultNetwork;
    if (cur && cur.network !== network) {
      await call(core, 'removeWatch', { address: cur.address });
      r.removed++;
    } else if (cur) {
      if (cur.label !== (w.label ?? '').trim() || !sameNotify(cur.notify, w.notify)) {
        await call(core, 'updateWatch', { address: w.address, label: w.label ?? '', ...(w.notify ? { notify: w.notify } : {}) });
        r.updated++;
      }
      continue;
    }
    fresh.push(w);
  }
  r.added += await core.addWatches(fresh);
  for (const [k, w] of have) {
    if (!want.has(k)) {
      await call(core, 'removeWatch', { address: w.address });
      r.removed++;
    }
  }

  const feeds = await call<SavedFeed[]>(core, 'listFeeds');
  const kept = new Set<string>();
  for (const f of config.feeds) {
    const network = f.network ?? defaultNetwork;
    const cur = feeds.find(
      (x) => !kept.has(x.id) && x.name === f.name && x.network === network && filterKey(x.filter) === filterKey(f.filter) && sameNotify(x.notify, f.notify),
    );
    if (cur) {
      kept.add(cur.id);
      continue;
    }
    const added = await call<SavedFeed>(core, 'addFeed', f);
    kept.add(added.id);
    r.added++;
  }
  for (const f of feeds) {
    if (!kept.has(f.id)) {
      await call(core, 'removeFeed', { id: f.id });
      r.removed++;
    }
  }
  await syncRelayers(core, config, defaultNetwork as Network, r);
  await syncRoutes(core, config, defaultNetwork as Network, r);
  return r;
}

/**
 * Relayers: one with another label, network or threshold is removed and added again (its silence is
 * then counted from the re-add); one unchanged is left alone, so its watch keeps its start.
 */
async function syncRelayers(core: MonitorCore, config: HeadlessConfig, defaultNetwork: Network, r: SyncResult): Promise<void> {
  const have = new Map((await call<WatchedRelayer[]>(core, 'listRelayers')).map((w) => [w.address.toLowerCase(), w]));
  const want = new Set<string>();
  const urls = new Map((await call<RelayerOwnView>(core, 'relayerOwnView')).relayers.map((x) => [x.address.toLowerCase(), x.metricsUrl]));
  for (const { metricsUrl, ...w } of config.relayers) {
    const k = w.address.toLowerCase();
    want.add(k);
    const cur = have.get(k);
    // A relayer without its own thresholds takes the file's defaults, so a changed default re-adds it.
    const silentMinutes = w.silentMinutes ?? config.relayerSilentMinutes;
    const pendingMinutes = w.pendingMinutes ?? config.relayerPendingMinutes;
    const input = {
      ...w,
      network: w.network ?? defaultNetwork,
      ...(silentMinutes !== undefined ? { silentMinutes } : {}),
      ...(pendingMinutes !== undefined ? { pendingMinutes } : {}),
    };
    if (!cur || !sameRelayer(cur, input)) {
      if (cur) await call(core, 'removeRelayer', { address: cur.address });
      await call(core, 'addRelayer', input);
      if (cur) r.updated++;
      else r.added++;
    }
    // Its metrics URL is kept apart from the watch: a changed URL alone leaves the watch (and its silence) as it was.
    if ((urls.get(k) ?? null) !== (metricsUrl ?? null)) await call(core, 'setRelayerMetricsUrl', { address: w.address, url: metricsUrl ?? null });
  }
  for (const [k, w] of have) {
    if (want.has(k)) continue;
    await call(core, 'removeRelayer', { address: w.address });
    r.removed++;
  }
}

const sameRelayer = (cur: WatchedRelayer, w: HeadlessConfig['relayers'][number] & { network: Network }) =>
  cur.address === w.address &&
  cur.network === w.network &&
  cur.label === (w.label ?? '').trim() &&
  (w.silentMinutes === undefined || cur.silentMinutes === w.silentMinutes) &&
  (w.pendingMinutes === undefined || cur.pendingMinutes === w.pendingMinutes) &&
  cur.alert === (w.alert ?? true);

/**
 * The config's routes by their identity, resolved as the core resolves them now (own nodes' EVM chain
 * IDs are known once their nodes were checked at start). Two entries naming one route are a config error.
 */
async function configRoutes(core: MonitorCore, config: HeadlessConfig, defaultNetwork: Network) {
  const own = ownChainsOf((await call<Settings>(core, 'getSettings')).dataSource);
  const seen = new Map<string, number>();
  return config.routes.map((w, i) => {
    const network = w.network ?? defaultNetwork;
    const resolved = resolveRouteInput(w, { network, ownChains: own });
    if (!resolved.ok) throw new Error(`routes[${i}]: ${resolved.problems.map((p) => p.message).join(' ')}`);
    const identity = routeIdentity(network, resolved.source, resolved.destination);
    const at = seen.get(identity);
    if (at !== undefined)
      throw new Error(
        `routes[${i}]: this route (${routeLabel(resolved.source, resolved.destination, own)}) is already watched at routes[${at}]: list it once.`,
      );
    seen.set(identity, i);
    return { ...w, network, source: resolved.source, destination: resolved.destination, identity };
  });
}

/** Routes: matched by identity (network, and both chains' cb58 IDs); a changed label or threshold re-adds it. */
async function syncRoutes(core: MonitorCore, config: HeadlessConfig, defaultNetwork: Network, r: SyncResult): Promise<void> {
  const want = await configRoutes(core, config, defaultNetwork);
  const have = await call<WatchedRoute[]>(core, 'listRoutes');
  const handled = new Set<string>();
  for (const { identity, ...w } of want) {
    const network = w.network;
    const backlogMinutes = w.backlogMinutes ?? config.routeBacklogMinutes;
    const cur = have.find((x) => !handled.has(x.id) && routeIdentity(x.network, x.sourceChain, x.destinationChain) === identity);
    const same =
      cur && cur.label === (w.label ?? '').trim() && (backlogMinutes === undefined || cur.backlogMinutes === backlogMinutes) && cur.alert === (w.alert ?? true);
    if (cur && same) {
      handled.add(cur.id);
      continue;
    }
    if (cur) {
      await call(core, 'removeRoute', { id: cur.id });
      handled.add(cur.id); // removed already, not again below
    }
    const added = await call<WatchedRoute>(core, 'addRoute', { ...w, network, ...(backlogMinutes !== undefined ? { backlogMinutes } : {}) });
    handled.add(added.id);
    if (cur) r.updated++;
    else r.added++;
  }
  for (const x of have) {
    if (handled.has(x.id)) continue;
    await call(core, 'removeRoute', { id: x.id });
    r.removed++;
  }
}
