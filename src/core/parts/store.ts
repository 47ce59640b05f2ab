import type { Settings } from '../../shared/contract';
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
 * database: said so the user can act); stopped, it closes the database.
 */
export function storePart(dataDir: string): StorePart {
  let store: Store;
  try {
    store = openStore(dataDir);
  } catch (e) {
    throw dataFolderFault(dataDir, e);
  }
  return { name: 'store', store, settings: () => store.settings.get(), stop: () => store.close() };
}
