/**
 * What the tray says, as plain data: the tooltip and the menu follow the core's PollStatus events
 * (pending messages, poll state) and the keychain status. tray.ts turns this into Electron objects.
 */
import type { PollStatus } from '../shared/contract';
import { formatDuration, formatRelative } from '../shared/format';
import { watchingLine } from '../shared/watching-line';

export interface TrayState {
  status: PollStatus | null;
  windowVisible: boolean;
  /** Why the OS keychain cannot be used (core's ApiKeyStatus.keychainError). */
  keychainError?: string;
}

export type TrayAction = 'toggle-window' | 'poll-now' | 'quit';

export type TrayMenuItem =
  { kind: 'info'; id: string; label: string } | { kind: 'action'; id: TrayAction; label: string; enabled: boolean } | { kind: 'separator' };

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "3 pending" from the messages the poller still tracks (awaiting delivery or a receipt). */
function pendingText(status: PollStatus | null): string {
  return status ? `${status.tracked} pending` : 'starting…';
}

/** One line about polling, e.g. "up to date, last poll 2 min ago" or "rate limited, retry in 30 s". */
export function pollText(status: PollStatus | null, now: number): string {
  if (!status) return 'starting…';
  const last = status.lastSuccessAt !== null ? `last poll ${formatRelative(status.lastSuccessAt, now)}` : 'no successful poll yet';
  switch (status.state) {
    case 'idle':
      return status.watching === 0 ? 'nothing watched yet' : `up to date, ${last}`;
    case 'polling':
      return `polling…, ${last}`;
    case 'rate_limited': {
      const wait = status.rateLimitedUntil !== null ? `, retry in ${formatDuration(Math.max(0, (status.rateLimitedUntil - now) / 1000))}` : '';
      return `rate limited${wait}`;
    }
    case 'offline':
      return `offline (${status.lastError?.message ?? 'data source unreachable'}), ${last}`;
    case 'error':
      return `error: ${status.lastError?.message ?? 'unknown'}, ${last}`;
    case 'stopped':
      return 'polling stopped';
    default:
      return String(status.state);
  }
}

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** Tooltips are short on every desktop (Windows cuts at 127 characters). */
export function trayTooltip(state: TrayState, now: number): string {
  const parts = [`Teleporter Watch: ${pendingText(state.status)}`, pollText(state.status, now)];
  if (state.keychainError) parts.push('keychain unavailable');
  return clip(parts.join(' · '), 127);
}

export function trayMenu(state: TrayState, now: number): TrayMenuItem[] {
  const s = state.status;
  const items: TrayMenuItem[] = [
    {
      kind: 'info',
      id: 'pending',
      label: s ? `${plural(s.tracked, 'message')} pending delivery or receipt · ${watchingLine(s).text}` : 'Starting…',
    },
    { kind: 'info', id: 'poll', label: `Polling: ${clip(pollText(s, now), 90)}` },
  ];
  if (state.keychainError) items.push({ kind: 'info', id: 'keychain', label: clip(`Keychain: ${state.keychainError}`, 110) });
  items.push(
    { kind: 'separator' },
    { kind: 'action', id: 'toggle-window', label: state.windowVisible ? 'Hide window' : 'Show Teleporter Watch', enabled: true },
    { kind: 'action', id: 'poll-now', label: 'Poll now', enabled: s !== null && s.state !== 'polling' },
    { kind: 'separator' },
    { kind: 'action', id: 'quit', label: 'Quit Teleporter Watch', enabled: true },
  );
  return items;
}
