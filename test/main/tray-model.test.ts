import { describe, expect, it } from 'vitest';
import type { PollStatus } from '../../src/shared/contract';
import { pollText, trayMenu, trayTooltip } from '../../src/main/tray-model';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const status = (over: Partial<PollStatus> = {}): PollStatus => ({
  state: 'idle',
  lastSuccessAt: NOW - 120_000,
  lastAttemptAt: NOW - 120_000,
  nextRunAt: NOW + 30_000,
  rateLimitedUntil: null,
  lastError: null,
  requestsLastMinute: 4,
  budgetPerMinute: 60,
  tracked: 3,
  watching: 2,
  watchers: { addresses: 1, feeds: 0, routes: 1 },
  ...over,
});

describe('tray model', () => {
  it('says how many messages are pending and how polling goes', () => {
    expect(trayTooltip({ status: status(), windowVisible: false }, NOW)).toBe('Teleporter Watch: 3 pending · up to date, last poll 2 min ago');
    const menu = trayMenu({ status: status({ tracked: 1 }), windowVisible: false }, NOW);
    expect(menu[0]).toEqual({ kind: 'info', id: 'pending', label: '1 message pending delivery or receipt · watching 1 address, 1 route' });
    expect(menu[1]).toEqual({ kind: 'info', id: 'poll', label: 'Polling: up to date, last poll 2 min ago' });
  });

  it('describes each poll state', () => {
    expect(pollText(null, NOW)).toBe('starting…');
    expect(pollText(status({ watching: 0 }), NOW)).toBe('nothing watched yet');
    expect(pollText(status({ state: 'polling' }), NOW)).toBe('polling…, last poll 2 min ago');
    expect(pollText(status({ state: 'rate_limited', rateLimitedUntil: NOW + 30_000 }), NOW)).toBe('rate limited, retry in 30 s');
    expect(pollText(status({ state: 'offline', lastError: { kind: 'network', message: 'Cannot reach 127.0.0.1:9' } }), NOW)).toBe(
      'offline (Cannot reach 127.0.0.1:9), last poll 2 min ago',
    );
    expect(pollText(status({ state: 'error', lastSuccessAt: null, lastError: { kind: 'unauthorized', message: 'API key rejected' } }), NOW)).toBe(
      'error: API key rejected, no successful poll yet',
    );
    expect(pollText(status({ state: 'stopped' }), NOW)).toBe('polling stopped');
  });

  it('offers show/hide, poll now and quit, and disables poll now while polling', () => {
    const ids = (visible: boolean, s: PollStatus | null) =>
      trayMenu({ status: s, windowVisible: visible }, NOW).flatMap((i) => (i.kind === 'action' ? [`${i.id}:${i.label}:${i.enabled}`] : []));
    expect(ids(false, status())).toEqual(['toggle-window:Show Teleporter Watch:true', 'poll-now:Poll now:true', 'quit:Quit Teleporter Watch:true']);
    expect(ids(true, status({ state: 'polling' }))).toEqual(['toggle-window:Hide window:true', 'poll-now:Poll now:false', 'quit:Quit Teleporter Watch:true']);
    expect(ids(false, null)[1]).toBe('poll-now:Poll now:false');
  });

  it('shows a keychain problem, and keeps the tooltip within 127 characters', () => {
    const keychainError =
      'No Secret Service on D-Bus. Install gnome-keyring (or KeePassXC with Secret Service enabled) and log in again; the key is kept for this session only.';
    const state = {
      status: status({ state: 'offline', lastError: { kind: 'network' as const, message: 'x'.repeat(200) } }),
      windowVisible: true,
      keychainError,
    };
    const tip = trayTooltip(state, NOW);
    expect(tip.length).toBeLessThanOrEqual(127);
    expect(tip.endsWith('…')).toBe(true);
    expect(trayTooltip({ status: status(), windowVisible: true, keychainError }, NOW)).toContain('keychain unavailable');
    const item = trayMenu(state, NOW).find((i) => i.kind === 'info' && i.id === 'keychain');
    expect(item && 'label' in item && item.label.startsWith('Keychain: No Secret Service on D-Bus. Install gnome-keyring')).toBe(true);
  });
});
