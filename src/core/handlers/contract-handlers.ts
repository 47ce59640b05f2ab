import { DEFAULT_NOTIFY, type MessagePage, type MonitorHandlers, type NotifyPrefs, type PageSource, type Settings } from '../../shared/contract';
import { isAllowedExternalUrl } from '../../shared/chains';
import { MonitorError } from '../../shared/errors';
import type { Network } from '../../shared/validators';
import type { OwnNodes } from '../../shared/own-nodes';
import type { ApiResult } from '../data-api/client';
import { DemoAddressSource } from '../service-launcher/demo-addresses';
import { computeStats } from '../store';
import { forgetWatcherData } from '../store/forget-watch';
import { CacheSourcesQuery } from '../store/cache-sources';
import { listActivity } from './activity-timeline';
import type { CoreContext } from './context';
import { isLocalService, keyHeaderFor } from './data-source';
import { findMessage } from './find-message';
import { checkApiKey } from './key-check';
import { createRelayerHandlers } from './relayer-handlers';
import { createRelayerOwnViewHandlers } from './relayer-own-view-handlers';

export const LOCAL_SOURCE_KEY_TEST =
  'Nothing to test: the data source is the embedded local service, which needs no API key and is never sent one. ' +
  'The key is for the Avalanche Data API or a custom URL: choose one of those as the data source, then test it.';

function notFound(message: string, field?: string): MonitorError {
  return new MonitorError({ kind: 'not_found', message, ...(field ? { field } : {}) });
}

/** Default notification choices for a new watch or feed: the global per-kind settings. */
export function defaultNotify(s: Settings, given?: Partial<NotifyPrefs>): NotifyPrefs {
  const n = s.notifications;
  return { ...DEFAULT_NOTIFY, new: n.new, left_pending: n.left_pending, receipt_delivered: n.receipt_delivered, stuck: n.stuck, ...(given ?? {}) };
}

export function createHandlers(ctx: CoreContext): MonitorHandlers {
  // Browsing is a pure read: the page is shown as the source sent it; only the poller changes state.
  const unwrap = (r: ApiResult<MessagePage>, source: PageSource): MessagePage => {
    if (!r.ok) throw new MonitorError(r.error);
    return { ...r.value, source };
  };
  /** The client for the current source, and that source's label (taken together, so they agree). */
  const clientFor = (network: Network) => {
    const c = ctx.sources.client(network);
    if (!c) throw new MonitorError({ kind: 'network', message: 'The local service is still starting; try again in a moment.' });
    const kind = ctx.settings().dataSource.kind;
    return { client: c, source: { kind, host: c.host, simulated: kind === 'local' } };
  };
  const demo = new DemoAddressSource();
  const cacheSources = new CacheSourcesQuery(ctx.store.db);
  const watchOrThrow = (address: string) => {
    const w = ctx.store.watches.getWatch(address);
    if (!w) throw notFound(`${address} is not on the watchlist.`, 'address');
    return w;
  };

  return {
    getAppInfo: () => {
      const s = ctx.settings();
      return {
        version: ctx.options.version,
        shell: ctx.options.shell,
        dataSource: { kind: s.dataSource.kind, baseUrl: ctx.sources.baseUrl() ?? '', network: s.network, simulated: s.dataSource.kind === 'local' },
      };
    },

    // Only the embedded demo has busy addresses to offer; a real API is never asked.
    getDemoAddresses: () => (ctx.settings().dataSource.kind === 'local' ? demo.get(ctx.sources.baseUrl()) : { addresses: [], relayers: [] }),

    getCacheSources: () => cacheSources.read(ctx.store.source()),
    getSettings: () => ctx.settings(),
    updateSettings: async (input) => {
      const checkOwnNodesAsConfigured = async (o: OwnNodes) =>
        (await checkChains()).checkOwnNodes(o, {
          mode: ctx.options.ownNodesCheck ?? 'refuse',
          onProblem: (m) => ctx.logger.warn(`own nodes: ${m} The other chains are read; this one shows its state.`),
        });
      // Own nodes are checked before they are saved (eth_chainId, code at each messenger); the saved chains carry their EVM chain IDs.
      const patch =
        input.dataSource?.kind === 'ownNodes'
          ? { ...input, dataSource: { kind: 'ownNodes' as const, ownNodes: await checkOwnNodesAsConfigured(input.dataSource.ownNodes) } }
          : input;
      let next: Settings;
      try {
        next = ctx.store.settings.update(patch);
      } catch (e) {
        const issue = (e as { issues?: { path: PropertyKey[]; message: string }[] }).issues?.[0];
        throw new MonitorError({
          kind: 'invalid_input',
          message: issue?.message ?? 'Invalid settings.',
          ...(issue?.path.length ? { field: issue.path.join('.') } : {}),
        });
      }
      ctx.emit({ type: 'settings-changed', settings: next });
      void ctx.poller.runCycle();
      return next;
    },

    alertChannelStates: () => ctx.alertChannels(),

    getApiKeyStatus: () => ctx.keys.status(),
    // A key once held stays a secret for the process's life (a replaced key still appears in old errors).
    setApiKey: ({ key }) => {
      ctx.logger.addSecret(key);
      const status = ctx.keys.set(key);
      ctx.logger.info('API key set', { storage: status.storage });
      ctx.emit({ type: 'api-key-changed', status });
      return status;
    },
    testApiKey: async (input) => {
      const key = input?.key ?? ctx.keys.get();
      if (!key) return { ok: false, message: 'No API key to test: enter one or save one first.' };
      ctx.logger.addSecret(key);
      // The embedded service neither needs nor knows the user's key: sending it there would only leak
      // it to another process, so there is nothing to test and nothing is sent.
      if (isLocalService(ctx.settings().dataSource.kind)) return { ok: false, message: LOCAL_SOURCE_KEY_TEST };
      const network = ctx.settings().network;
      const withKey = ctx.sources.client(network, { apiKey: () => key });
      const withoutKey = ctx.sources.client(network, { apiKey: () => null });
      if (!withKey || !withoutKey) return { ok: false, message: 'The local service is still starting; try again in a moment.' };
      return checkApiKey(withKey, withoutKey, keyHeaderFor(ctx.settings()));
    },
    deleteApiKey: () => {
      const status = ctx.keys.delete();
      ctx.logger.info('API key deleted');
      ctx.emit({ type: 'api-key-changed', status });
      return status;
    },

    listWatches: () => ctx.store.watches.listWatches(),
    addWatch: (input) => {
      const s = ctx.settings();
      const added = ctx.store.watches.addWatch({
        address: input.address,
        label: input.label?.trim() ?? '',
        network: input.network ?? s.network,
        notify: defaultNotify(s, input.notify),
        createdAt: ctx.clock.now(),
      });
      if (!added) throw new MonitorError({ kind: 'invalid_input', field: 'address', message: `${input.address} is already on the watchlist.` });
      ctx.emit({ type: 'watchlist-changed' });
      void ctx.poller.runCycle(); // takes the silent baseline now rather than one interval later
      return watchOrThrow(input.address);
    },
    updateWatch: (input) => {
      const w = watchOrThrow(input.address);
      ctx.store.watches.updateWatch(input.address, {
        ...(input.label !== undefined ? { label: input.label.trim() } : {}),
        ...(input.notify ? { notify: { ...w.notify, ...input.notify } } : {}),
      });
      ctx.emit({ type: 'watchlist-changed' });
      return watchOrThrow(input.address);
    },
    removeWatch: ({ address, forget }) => {
      if (forget && ctx.store.watches.getWatch(address)) forgetWatcherData(ctx.store.db, address);
      if (!ctx.store.watches.removeWatch(address)) throw notFound(`${address} is not on the watchlist.`, 'address');
      ctx.emit({ type: 'watchlist-changed' });
    },
    markWatchViewed: ({ address }) => {
      watchOrThrow(address);
      ctx.store.watches.markViewed(address, ctx.clock.now());
      ctx.emit({ type: 'watchlist-changed' });
      return watchOrThrow(address);
    },

    listFeeds: () => ctx.store.watches.listFeeds(),
    addFeed: (input) => {
      const s = ctx.settings();
      const feed = ctx.store.watches.addFeed({
        name: input.name,
        network: input.network ?? s.network,
        filter: input.filter,
        notify: defaultNotify(s, input.notify),
        createdAt: ctx.clock.now(),
      });
      ctx.emit({ type: 'watchlist-changed' });
      void ctx.poller.runCycle();
      return feed;
    },
    removeFeed: ({ id }) => {
      if (!ctx.store.watches.removeFeed(id)) throw notFound(`There is no saved feed with ID ${id}.`, 'id');
      ctx.emit({ type: 'watchlist-changed' });
    },

    browseMessages: async (q) => {
      const network = q.network ?? ctx.settings().network;
      const { network: _n, ...query } = q;
      const { client, source } = clientFor(network);
      return unwrap(await client.listMessages(query), source);
    },
    browseAddressMessages: async (q) => {
      const network = q.network ?? ctx.settings().network;
      const { client, source } = clientFor(network);
      return unwrap(
        await client.listAddressMessages(q.address, { ...(q.pageSize ? { pageSize: q.pageSize } : {}), ...(q.pageToken ? { pageToken: q.pageToken } : {}) }),
        source,
      );
    },
    searchCache: (q) => ctx.store.search.find(q),
    getMessage: ({ messageId }) => ctx.store.messages.get(messageId),
    findMessage: ({ messageId }) => findMessage(ctx, messageId),
    listTransitions: (q) => {
      const limit = q.limit ?? 100;
      const items = ctx.store.transitions.list({ ...q, limit });
      const last = items[items.length - 1];
      return items.length === limit && last ? { items, nextBeforeId: last.id } : { items };
    },
    listActivity: (q) => listActivity(ctx.store, q),

    getPollStatus: () => ctx.pollStatus(),
    pollNow: async () => {
      await ctx.poller.pollNow();
      return ctx.pollStatus();
    },
    getStats: ({ hours }) => computeStats(ctx.store.db, ctx.clock.now(), hours, ctx.store.source()),

    openExternal: async ({ url }) => {
      if (!isAllowedExternalUrl(url)) {
        throw new MonitorError({ kind: 'invalid_input', field: 'url', message: 'Only https links to the known block explorers can be opened.' });
      }
      if (!ctx.options.openExternal) {
        throw new MonitorError({ kind: 'bad_request', message: 'This shell cannot open links itself; open the link in the browser.' });
      }
      // eng-disable OPEN_EXTERNAL_JS_CHECK: url passed isAllowedExternalUrl above
      await ctx.options.openExternal(url);
    },
    ...createRelayerHandlers(ctx),
    ...createRelayerOwnViewHandlers(ctx),
  };
}

/** The chain checks bring viem: loaded when own nodes are first saved, not in every core's memory from the start. */
const checkChains = () => import('../own-nodes/check-chains');
