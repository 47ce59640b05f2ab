/**
 * Find a message by ID: the Data API's single-message operation (any network), falling back to the
 * local cache when the data source cannot answer. A well-formed ID nobody knows is a not_found error
 * on the messageId field; the contract's schema has already refused a malformed one.
 */
import type { FoundMessage, Settings } from '../../shared/contract';
import { MonitorError } from '../../shared/errors';
import type { Store } from '../store';
import type { DataSources } from './data-source';

/** What finding a message uses: the cache, the data source, the network asked. */
export interface FindNeeds {
  store: Pick<Store, 'messages'>;
  sources: Pick<DataSources, 'client'>;
  settings(): Settings;
}

export async function findMessage(ctx: FindNeeds, messageId: string): Promise<FoundMessage> {
  const cached = ctx.store.messages.get(messageId) ?? null;
  const fromCache = (note: string): FoundMessage => ({ message: cached!.message, source: 'cache', cached, note });
  const client = ctx.sources.client(ctx.settings().network);
  if (!client) {
    if (cached) return fromCache('The local service is still starting; showing the cached copy.');
    throw new MonitorError({ kind: 'network', message: 'The local service is still starting; try again in a moment.' });
  }
  const r = await client.getMessage(messageId);
  if (r.ok) return { message: r.value, source: 'api', cached };
  if (r.error.kind === 'not_found') {
    if (cached) return fromCache(`${client.host} no longer has this message; showing the cached copy.`);
    throw new MonitorError({
      kind: 'not_found',
      field: 'messageId',
      message: `No message with ID ${messageId}: ${client.host} does not know it on any network, and it is not in the local cache.`,
    });
  }
  if (cached) return fromCache(`${r.error.message} Showing the cached copy.`);
  throw new MonitorError(r.error);
}
