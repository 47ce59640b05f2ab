/** The contract's calls that read messages: browsing the data source, the cache, the transition log and Activity. */
import type { MessagePage, MonitorHandlers, PageSource, Settings } from '../../shared/contract';
import { MonitorError } from '../../shared/errors';
import type { Network } from '../../shared/validators';
import type { ApiResult } from '../data-api/client';
import type { Store } from '../store';
import { listActivity } from './activity-timeline';
import type { DataSources } from './data-source';
import { findMessage } from './find-message';

/** What the message handlers use, and all they can reach. */
export interface MessageNeeds {
  store: Pick<Store, 'messages' | 'search' | 'transitions' | 'alertEntries'>;
  settings(): Settings;
  sources: Pick<DataSources, 'client'>;
}

type MessageMethods = 'browseMessages' | 'browseAddressMessages' | 'searchCache' | 'getMessage' | 'findMessage' | 'listTransitions' | 'listActivity';

export function createMessageHandlers(ctx: MessageNeeds): Pick<MonitorHandlers, MessageMethods> {
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
  return {
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
  };
}
