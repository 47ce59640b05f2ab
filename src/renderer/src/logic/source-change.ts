import type { Settings } from '../../../shared/contract';

/** What identifies where rows come from: the data source (and its URL) and the network. */
export function sourceKey(s: Settings): string {
  const ds = s.dataSource;
  return `${ds.kind}|${ds.kind === 'custom' ? ds.baseUrl : ds.kind === 'ownNodes' ? JSON.stringify(ds.ownNodes.chains) : ''}|${s.network}`;
}

/** Whether a settings change moved to another data source or network (a clean cut for the views). */
export const sourceChanged = (before: Settings | null, after: Settings): boolean => before !== null && sourceKey(before) !== sourceKey(after);
