/** The contract's calls about the app itself: what it is, the demo's busy addresses, the cache's sources, opening a link. */
import type { MonitorHandlers, Settings, ShellName } from '../../shared/contract';
import { isAllowedExternalUrl } from '../../shared/chains';
import { MonitorError } from '../../shared/errors';
import { DemoAddressSource } from '../local-service/demo-addresses';
import { CacheSourcesQuery } from '../store/cache-sources';
import type { Store } from '../store';
import type { DataSources } from './data-source';

/** What the app handlers use, and all they can reach. */
export interface AppNeeds {
  version: string;
  shell: ShellName;
  /** Opens an allow-listed link (absent: the shell cannot, the web host). */
  openExternal?: (url: string) => Promise<void>;
  settings(): Settings;
  sources: Pick<DataSources, 'baseUrl'>;
  store: Pick<Store, 'db' | 'source'>;
}

type AppMethods = 'getAppInfo' | 'getDemoAddresses' | 'getCacheSources' | 'openExternal';

export function createAppHandlers(ctx: AppNeeds): Pick<MonitorHandlers, AppMethods> {
  const demo = new DemoAddressSource();
  const cacheSources = new CacheSourcesQuery(ctx.store.db);
  return {
    getAppInfo: () => {
      const s = ctx.settings();
      return {
        version: ctx.version,
        shell: ctx.shell,
        dataSource: { kind: s.dataSource.kind, baseUrl: ctx.sources.baseUrl() ?? '', network: s.network, simulated: s.dataSource.kind === 'local' },
      };
    },

    // Only the embedded demo has busy addresses to offer; a real API is never asked.
    getDemoAddresses: () => (ctx.settings().dataSource.kind === 'local' ? demo.get(ctx.sources.baseUrl()) : { addresses: [], relayers: [] }),

    getCacheSources: () => cacheSources.read(ctx.store.source()),

    openExternal: async ({ url }) => {
      if (!isAllowedExternalUrl(url)) {
        throw new MonitorError({ kind: 'invalid_input', field: 'url', message: 'Only https links to the known block explorers can be opened.' });
      }
      if (!ctx.openExternal) {
        throw new MonitorError({ kind: 'bad_request', message: 'This shell cannot open links itself; open the link in the browser.' });
      }
      // eng-disable OPEN_EXTERNAL_JS_CHECK: url passed isAllowedExternalUrl above
      await ctx.openExternal(url);
    },
  };
}
