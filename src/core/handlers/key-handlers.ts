/** The contract's calls about the API key: its status, setting, testing and deleting it. */
import type { MonitorEvent, MonitorHandlers, Settings } from '../../shared/contract';
import type { CoreLogger } from '../log/logger';
import type { KeyStore } from '../secrets/key-store';
import { isLocalService, keyHeaderFor, type DataSources } from './data-source';
import { checkApiKey } from './key-check';

export const LOCAL_SOURCE_KEY_TEST =
  'Nothing to test: the data source is the embedded local service, which needs no API key and is never sent one. ' +
  'The key is for the Avalanche Data API or a custom URL: choose one of those as the data source, then test it.';

/** What the key handlers use, and all they can reach. */
export interface KeyNeeds {
  keys: KeyStore;
  /** A key once held is a secret of the log for the process's life. */
  logger: Pick<CoreLogger, 'addSecret' | 'info'>;
  emit(e: MonitorEvent): void;
  settings(): Settings;
  sources: Pick<DataSources, 'client'>;
}

type KeyMethods = 'getApiKeyStatus' | 'setApiKey' | 'testApiKey' | 'deleteApiKey';

export function createKeyHandlers(ctx: KeyNeeds): Pick<MonitorHandlers, KeyMethods> {
  return {
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
  };
}
