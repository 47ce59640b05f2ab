// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { routeEvents } from '../../src/renderer/src/events';
import { messagesToCsv } from '../../src/renderer/src/logic/csv';
import { useSettingsStore } from '../../src/renderer/src/stores/settings';
import { useUiStore } from '../../src/renderer/src/stores/ui';
import { useWatchlistStore } from '../../src/renderer/src/stores/watchlist';
import { parseMessage } from '../../src/shared/messages';
import { BEAM, C_CHAIN, addr, message, msgId, rawMessage, txHash } from './fixtures';
import { flush, setupRenderer } from './setup';

describe('event routing', () => {
  it('focus-message opens the message from the cache; an unknown ID opens the drawer with nothing found', async () => {
    const m = message({ n: 1 });
    const { fake, api } = setupRenderer({ messages: [{ message: m, network: 'mainnet' }] });
    routeEvents(api, { systemNotifications: false });
    const ui = useUiStore();
    fake.emit({ type: 'focus-message', messageId: m.messageId });
    await flush();
    expect(ui.detailOpen).toBe(true);
    expect(ui.detail?.messageId).toBe(m.messageId);
    fake.emit({ type: 'focus-message', messageId: msgId(99) });
    await flush();
    expect(ui.detailId).toBe(msgId(99));
    expect(ui.detail).toBeNull();
    expect(ui.detailError).toBeNull();
  });

  it('settings-changed, api-key-changed and transitions for watched addresses reach their stores', async () => {
    const { fake, api } = setupRenderer();
    routeEvents(api, { systemNotifications: false });
    const settings = useSettingsStore();
    const watchlist = useWatchlistStore();
    await watchlist.add({ address: addr(1) });
    await watchlist.load();
    fake.emit({ type: 'settings-changed', settings: { ...fake.settings, pollIntervalSeconds: 90 } });
    fake.emit({ type: 'api-key-changed', status: { hasApiKey: true, storage: 'memory', keychainError: 'install gnome-keyring' } });
    expect(settings.settings?.pollIntervalSeconds).toBe(90);
    expect(settings.apiKey?.storage).toBe('memory');
    fake.emit({ type: 'transitions', transitions: [{ id: 1, at: 0, messageId: msgId(1), kind: 'new', fromStatus: null, toStatus: 'pending', network: 'mainnet', sourceBlockchainId: C_CHAIN.blockchainId, destinationBlockchainId: BEAM.blockchainId, watchers: [{ kind: 'address', address: addr(1) }] }], watches: [{ ...fake.watches.get(addr(1))!, unread: 2 }] });
    await flush();
    expect(watchlist.totalUnread).toBe(2);
  });
});

describe('CSV export', () => {
  it('writes one row per message with chain names, ISO times and the formatted reward, quoting where needed', () => {
    const unknown = parseMessage(rawMessage({ n: 3, status: 'relaying', extra: { from: 'a, "quoted" sender' } }))!;
    const csv = messagesToCsv([message({ n: 1, latency: 30 }), message({ n: 2, status: 'pending' }), unknown]);
    const parsed = Papa.parse<Record<string, string>>(csv, { header: true });
    expect(parsed.errors).toEqual([]);
    const [a, b, c] = parsed.data;
    expect(a).toMatchObject({ messageId: msgId(1), status: 'delivered', sourceChain: 'C-Chain', destinationChain: 'Beam', sourceTxHash: txHash(1), latencySeconds: '30', reward: '1.5', rewardSymbol: 'WAVAX', receiptDelivered: 'true' });
    expect(a?.sourceTime).toBe(new Date((1_767_225_600 - 60) * 1000).toISOString());
    expect(b).toMatchObject({ status: 'pending', destinationTxHash: '', latencySeconds: '' });
    expect(c).toMatchObject({ status: 'relaying', from: 'a, "quoted" sender' });
  });
});
