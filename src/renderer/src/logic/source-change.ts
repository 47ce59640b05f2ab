import type { Settings } from '../../../shared/contract';

/**
 * What a view's rows are read for: the data source (its URL, your own chains) and the network. When it
 * changes every store reads again (connection.ts): the rows shown are another source's or network's.
 */
export function originKey(s: Settings): string {
  const ds = s.dataSource;
  return `${ds.kind}|${ds.kind === 'custom' ? ds.baseUrl : ds.kind === 'ownNodes' ? JSON.stringify(ds.ownNodes.chains) : ''}|${s.network}`;
}
