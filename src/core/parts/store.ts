import type { Settings } from '../../shared/contract';
import { ownChainsOf } from '../../shared/chains';
import type { Logger } from '../log/logger';
import { repairRouteIdentity } from '../relayers/route-identity';
import { openStore, type Store } from '../store';
import { dataFolderFault } from '../store/open-fault';
import type { Part } from './part';

export interface StorePart extends Part {
  readonly store: Store;
  /** The saved settings now (every part reads them through this). */
  readonly settings: () => Settings;
}

/**
 * `<dataDir>/monitor.sqlite`, opened when made (a read-only or full folder, a file in its place, a newer
 * database: said so the user can act); stopped, it closes the database. Watched routes stored in
 * another form than their cb58 IDs are rewritten as they open, and a route then watched twice merged.
 */
export function storePart(dataDir: string, logger?: Logger): StorePart {
  let store: Store;
  try {
    store = openStore(dataDir);
  } catch (e) {
    throw dataFolderFault(dataDir, e);
  }
  try {
    const repair = repairRouteIdentity(store, ownChainsOf(store.settings.get().dataSource));
    if (repair.rewritten.length || repair.merged.length) logger?.info('watched routes keyed by their blockchain IDs', { ...repair });
  } catch (e) {
    // The routes stay as they were stored (matched as before); the app still opens.
    logger?.error('watched routes could not be keyed by their blockchain IDs', { error: e });
  }
  return { name: 'store', store, settings: () => store.settings.get(), stop: () => store.close() };
}
