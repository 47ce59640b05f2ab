import type { AlertChannelConfig } from '../../../shared/alert-schemas';

/** How the Settings page offers a channel: three kinds, a URL and an optional name. */
type ChannelKind = 'alertmanager' | 'slack' | 'json';
export interface ChannelRow {
  kind: ChannelKind;
  url: string;
  name: string;
  /** The saved channel this row came from: keeps fields the page does not show (timeouts). */
  saved?: AlertChannelConfig;
}

export const CHANNEL_KINDS: { value: ChannelKind; label: string }[] = [
  { value: 'alertmanager', label: 'Alertmanager' },
  { value: 'slack', label: 'Slack webhook' },
  { value: 'json', label: 'JSON webhook' },
];

export function toRow(c: AlertChannelConfig): ChannelRow {
  const kind: ChannelKind = c.type === 'alertmanager' ? 'alertmanager' : c.format === 'slack' ? 'slack' : 'json';
  return { kind, url: c.url, name: c.name ?? '', saved: c };
}

/** The channel as the contract takes it (validated by the core's schema on Save). */
export function toChannel(r: ChannelRow): AlertChannelConfig {
  const name = r.name.trim();
  const url = r.url.trim();
  const timeout = r.saved?.timeoutSeconds !== undefined ? { timeoutSeconds: r.saved.timeoutSeconds } : {};
  const named = name ? { name } : {};
  if (r.kind === 'alertmanager') {
    const resolve = r.saved?.type === 'alertmanager' && r.saved.resolveAfterMinutes !== undefined ? { resolveAfterMinutes: r.saved.resolveAfterMinutes } : {};
    return { type: 'alertmanager', url, ...named, ...timeout, ...resolve };
  }
  return { type: 'webhook', format: r.kind, url, ...named, ...timeout };
}
