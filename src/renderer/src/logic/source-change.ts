import type { Settings } from '../../../shared/contract';

/** What identifies where rows come from: the data source (and its URL) and the network. */
export function sourceKey(s: Settings): string {
  const ds = s.dataSource;
  return `${ds.kind}|${ds.kind === 'custom' ? ds.baseUrl : ds.kind === 'ownNodes' ? JSON.stringify(ds.ownNodes.chains) : ''}|${s.network}`;
}

/** A data source in words, as the banners name it; the demo always says it is simulated. */
export function sourceLabel(ds: Settings['dataSource']): string {
  if (ds.kind === 'local') return 'the embedded demo (simulated)';
  if (ds.kind === 'avalanche') return 'the Avalanche Data API';
  if (ds.kind === 'custom') return `the custom URL ${ds.baseUrl}`;
  return 'your own nodes';
}

/**
 * The sources whose figures the local cache still holds besides the current one, after a switch from
 * `before` to `after`: the one left is added, the one come back to is no longer "earlier".
 */
export function keptAfterSwitch(kept: readonly string[], before: Settings['dataSource'], after: Settings['dataSource']): string[] {
  const left = sourceLabel(before);
  const now = sourceLabel(after);
  return [...new Set([...kept, left])].filter((s) => s !== now);
}
