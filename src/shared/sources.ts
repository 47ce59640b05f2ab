/**
 * A data source's identity: the one key stored beside every figure the core keeps (cached messages,
 * transitions, alert episodes, balances), so a view and an alert rule can tell the current source's
 * figures from those another source gave earlier, across restarts, tabs and ports.
 */
import type { DataSource } from './contract/settings';

/** `local`, `avalanche`, `ownNodes`, or `custom:<base URL>` (no credentials, query or fragment). */
export type SourceKey = string;

/** Rows stored before figures carried their source (adopted by the source configured when the app is upgraded). */
export const UNKNOWN_SOURCE: SourceKey = '';

/**
 * The base URL as the key holds it: scheme, host, port and path without a trailing slash. Credentials,
 * a query and a fragment are left out, as they may hold a secret and do not name another source.
 */
function baseOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return url;
  }
}

/** The key of a configured data source. */
export function sourceKeyOf(ds: DataSource): SourceKey {
  return ds.kind === 'custom' ? `custom:${baseOf(ds.baseUrl)}` : ds.kind;
}

/** A source in words, as a sentence names it ("figures from the embedded demo (simulated)"); the demo always says it is simulated. */
export function sourceName(key: SourceKey): string {
  if (key === 'local') return 'the embedded demo (simulated)';
  if (key === 'avalanche') return 'the Avalanche Data API';
  if (key === 'ownNodes') return 'your own nodes';
  if (key.startsWith('custom:')) return `the custom URL ${key.slice('custom:'.length)}`;
  return 'an earlier data source';
}

/** A source as a title or a label names it ("Embedded demo", "glacier.example.org"). */
export function sourceTitle(key: SourceKey): string {
  if (key === 'local') return 'Embedded demo';
  if (key === 'avalanche') return 'Avalanche Data API';
  if (key === 'ownNodes') return 'Your own nodes';
  if (key.startsWith('custom:')) {
    const base = key.slice('custom:'.length);
    try {
      return new URL(base).host;
    } catch {
      return base;
    }
  }
  return 'Earlier data source';
}
