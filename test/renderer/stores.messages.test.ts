// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { useMessagesStore, AUTO_REFRESH_MS } from '../../src/renderer/src/stores/messages';
import type { SendOptions } from '../../src/local-service';
import { BEAM, C_CHAIN, DFK, FUJI_C, DISPATCH, addr } from './fixtures';
import { type RealRenderer, setupRealRenderer, until } from './real-core';

const HOUR = 3_600_000;

/** Sends messages a second apart (real traffic never shares a timestamp), then lets a second pass. */
async function send(r: RealRenderer, count: number, o: (i: number) => SendOptions): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    await r.clock.advance(1000);
    ids.push(r.service.simulator.send({ outcome: 'normal', deliveryDelayMs: 10 * HOUR, ...o(i) }));
  }
  await r.clock.advance(1000);
  return ids;
}

const browseCalls = (r: RealRenderer) => r.transport.callsOf('browseMessages') as { pageToken?: string }[];

describe('messages store (real core)', () => {
  it('applies a filter typed by chain name and pages forward and back through cursors', async () => {
    const r = await setupRealRenderer();
    await send(r, 25, (i) => ({ source: C_CHAIN.blockchainId, destination: i % 2 ? BEAM.blockchainId : DFK.blockchainId }));
    const s = useMessagesStore();
    s.form.destination = 'beam';
    s.form.pageSize = '5';
    expect(await s.apply()).toBe(true);
    expect(browseCalls(r)[0]).toEqual({ network: 'mainnet', destinationBlockchainId: BEAM.blockchainId, pageSize: 5 });
    expect(s.messages).toHaveLength(5);
    const firstPage = s.messages.map((m) => m.messageId);
    await s.next();
    await s.next();
    expect(s.pageIndex).toBe(2);
    expect(s.hasNext).toBe(false); // 12 Beam messages: 5 + 5 + 2
    expect(s.messages).toHaveLength(2);
    await s.prev();
    await s.prev();
    expect(s.pageIndex).toBe(0);
    expect(s.messages.map((m) => m.messageId)).toEqual(firstPage);
    const tokens = browseCalls(r).map((c) => c.pageToken);
    expect(tokens[0]).toBeUndefined();
    expect(tokens[4]).toBeUndefined();
    expect(tokens[3]).toBe(tokens[1]); // back to page 1 with the token that fetched it
    expect(new Set([tokens[1], tokens[2]]).size).toBe(2);
  });

  it('marks invalid fields with the validator reason and sends no request', async () => {
    const r = await setupRealRenderer();
    const s = useMessagesStore();
    s.form.source = 'Atlantis';
    s.form.from = '0x1234';
    s.form.to = addr(3)
      .toLowerCase()
      .replace(/^0x(.)/, (_m, c: string) => '0x' + c.toUpperCase());
    s.form.pageSize = '500';
    expect(await s.apply()).toBe(false);
    expect(s.fieldErrors.source).toMatch(/not a chain known on mainnet/);
    expect(s.fieldErrors.from).toMatch(/40 hex digits/);
    expect(s.fieldErrors.pageSize).toBe('pageSize must not be greater than 100.');
    expect(r.transport.calls).toHaveLength(0);
  });

  it('an invalid sender filter clears the previous rows and refreshes nothing until a valid filter is applied', async () => {
    const r = await setupRealRenderer();
    const address = r.service.simulator.addresses[0]!;
    await send(r, 3, () => ({ from: address, destination: BEAM.blockchainId }));
    await send(r, 2, () => ({ from: r.service.simulator.addresses[1]!, destination: DFK.blockchainId }));
    const s = useMessagesStore();
    s.form.from = address;
    expect(await s.apply()).toBe(true);
    expect(s.messages).toHaveLength(3);
    s.form.from = '0x1234';
    expect(await s.apply()).toBe(false);
    expect(s.fieldErrors.from).toMatch(/40 hex digits/);
    expect([s.messages, s.page, s.refused]).toEqual([[], null, true]);
    await r.clock.advance(AUTO_REFRESH_MS * 2); // auto-refresh would bring back rows the refused filter never asked for
    expect(browseCalls(r)).toHaveLength(1);
    expect(s.messages).toEqual([]);
    s.form.from = '';
    expect(await s.apply()).toBe(true);
    expect([s.messages.length, s.refused, s.fieldErrors]).toEqual([5, false, {}]);
  });

  it('accepts cb58 and EVM chain IDs and the fuji network', async () => {
    const r = await setupRealRenderer();
    await send(r, 3, () => ({ source: C_CHAIN.blockchainId, destination: BEAM.blockchainId }));
    const [fujiId] = await send(r, 1, () => ({ network: 'fuji', source: FUJI_C.blockchainId, destination: DISPATCH.blockchainId }));
    const s = useMessagesStore();
    s.form.network = 'fuji';
    s.form.source = '43113';
    s.form.either = DISPATCH.blockchainId;
    expect(await s.apply()).toBe(true);
    expect(browseCalls(r)[0]).toMatchObject({ network: 'fuji', sourceBlockchainId: '43113', blockchainId: DISPATCH.blockchainId });
    expect(s.messages.map((m) => m.messageId)).toEqual([fujiId]);
    s.form.either = '43114'; // EVM id of a registry chain resolves to its cb58 ID
    s.form.network = 'mainnet';
    s.form.source = C_CHAIN.blockchainId;
    expect(await s.apply()).toBe(true);
    expect(browseCalls(r)[1]).toMatchObject({ blockchainId: C_CHAIN.blockchainId });
    expect(s.messages).toHaveLength(3);
  });

  it('keeps a failing source as a general alert and recovers on the next apply', async () => {
    const r = await setupRealRenderer();
    await send(r, 3, () => ({ destination: BEAM.blockchainId }));
    const s = useMessagesStore();
    r.service.setFaults('429:1');
    expect(await s.apply()).toBe(false);
    expect(s.error?.kind).toBe('rate_limited');
    expect(s.fieldErrors).toEqual({});
    r.service.setFaults(null);
    await r.clock.advance(60_000);
    expect(await s.apply()).toBe(true);
    expect(s.error).toBeNull();
  });

  it('drops a stale answer that arrives after a newer one', async () => {
    const r = await setupRealRenderer();
    await send(r, 6, (i) => ({ destination: i % 2 ? BEAM.blockchainId : DFK.blockchainId }));
    const s = useMessagesStore();
    const release = r.transport.hold('browseMessages');
    s.form.destination = 'DFK Chain';
    const slow = s.apply();
    s.form.destination = 'Beam';
    await s.apply();
    release();
    await slow;
    expect(s.messages).toHaveLength(3);
    expect(s.messages.every((m) => (m as { destinationBlockchainId: string }).destinationBlockchainId === BEAM.blockchainId)).toBe(true);
  });

  it('auto-refreshes the first page on the injected clock by default, and stops when switched off', async () => {
    const r = await setupRealRenderer();
    const s = useMessagesStore();
    expect(s.autoRefresh).toBe(true);
    await s.apply();
    await r.clock.advance(AUTO_REFRESH_MS);
    await until(() => expect(browseCalls(r)).toHaveLength(2));
    await until(() => expect(s.loading).toBe(false));
    await r.clock.advance(AUTO_REFRESH_MS);
    await until(() => expect(browseCalls(r)).toHaveLength(3));
    await until(() => expect(s.loading).toBe(false));
    s.setAutoRefresh(false);
    await r.clock.advance(AUTO_REFRESH_MS * 3);
    expect(browseCalls(r)).toHaveLength(3);
  });

  it("redraws a shown message a poll batch changed from the core's cache: no Data API request, no browse call", async () => {
    const r = await setupRealRenderer();
    const address = r.service.simulator.addresses[0]!;
    await r.core.invoke('addWatch', { address });
    await r.poll();
    const [shown] = await send(r, 1, () => ({ from: address, destination: BEAM.blockchainId, deliveryDelayMs: 60_000, receiptDelayMs: 10 * HOUR }));
    await r.poll(); // `new` for it, before the page is open
    const s = useMessagesStore();
    s.setAutoRefresh(false);
    await s.apply();
    expect(s.messages.map((m) => [m.messageId, m.status])).toEqual([[shown, 'pending']]);
    await r.clock.advance(2 * 60_000);
    await r.poll(); // left_pending for the shown message; its batch has been delivered
    const requests = r.service.requestCount();
    await until(() => expect(s.messages.find((m) => m.messageId === shown)?.status).toBe('delivered'));
    expect(r.service.requestCount()).toBe(requests); // the redraw spent nothing of the request budget
    expect(browseCalls(r)).toHaveLength(1);
    expect(r.transport.callsOf('getMessage')).toEqual([{ messageId: shown }]); // the core's cache, for the shown row only
    expect(s.page?.messages.find((m) => m.messageId === shown)).toMatchObject({ destinationTransaction: { txHash: expect.any(String) } });
    // A batch about a message the page does not show reads nothing.
    await send(r, 1, () => ({ from: address, destination: DFK.blockchainId }));
    s.form.destination = 'Beam';
    await s.apply();
    const shownNow = s.messages.map((m) => m.messageId);
    await r.poll();
    const batch = await r.api.listTransitions({ limit: 1 });
    expect(shownNow).not.toContain(batch.items[0]!.messageId); // the poll logged the DFK message, which is not shown
    expect(browseCalls(r)).toHaveLength(2);
    expect(r.transport.callsOf('getMessage')).toHaveLength(1);
  });

  it('moves the keyboard selection within the page', async () => {
    const r = await setupRealRenderer();
    await send(r, 3, () => ({ destination: BEAM.blockchainId }));
    const s = useMessagesStore();
    await s.apply();
    s.select(1);
    s.select(5);
    expect(s.selected).toBe(2);
    s.select(-10);
    expect(s.selected).toBe(0);
  });
});
