// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { useMessagesStore, AUTO_REFRESH_MS } from '../../src/renderer/src/stores/messages';
import { BEAM, C_CHAIN, DFK, FUJI_C, DISPATCH, addr, message } from './fixtures';
import { setupRenderer } from './setup';

const many = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ message: message({ n: i + 1, dst: i % 2 ? BEAM : DFK }), network: 'mainnet' as const }));

describe('messages store', () => {
  it('applies a filter typed by chain name and pages forward and back through cursors', async () => {
    const { fake } = setupRenderer({ messages: many(25) });
    const s = useMessagesStore();
    s.form.destination = 'beam';
    s.form.pageSize = '5';
    expect(await s.apply()).toBe(true);
    expect(fake.callsOf('browseMessages')[0]).toEqual({ network: 'mainnet', destinationBlockchainId: BEAM.blockchainId, pageSize: 5 });
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
    expect(fake.callsOf('browseMessages').map((c) => (c as { pageToken?: string }).pageToken)).toEqual([undefined, 'cursor:5', 'cursor:10', 'cursor:5', undefined]);
  });

  it('marks invalid fields with the validator reason and sends no request', async () => {
    const { fake } = setupRenderer({ messages: many(3) });
    const s = useMessagesStore();
    s.form.source = 'Atlantis';
    s.form.from = '0x1234';
    s.form.to = addr(3).toLowerCase().replace(/^0x(.)/, (_m, c: string) => '0x' + c.toUpperCase()) ;
    s.form.pageSize = '500';
    expect(await s.apply()).toBe(false);
    expect(s.fieldErrors.source).toMatch(/not a chain known on mainnet/);
    expect(s.fieldErrors.from).toMatch(/40 hex digits/);
    expect(s.fieldErrors.pageSize).toBe('pageSize must not be greater than 100.');
    expect(fake.calls).toHaveLength(0);
  });

  it('accepts cb58 and EVM chain IDs and the fuji network', async () => {
    const fuji = [{ message: message({ n: 1, src: FUJI_C, dst: DISPATCH }), network: 'fuji' as const }];
    const { fake } = setupRenderer({ messages: [...many(3), ...fuji] });
    const s = useMessagesStore();
    s.form.network = 'fuji';
    s.form.source = '43113';
    s.form.either = DISPATCH.blockchainId;
    expect(await s.apply()).toBe(true);
    expect(fake.callsOf('browseMessages')[0]).toMatchObject({ network: 'fuji', sourceBlockchainId: '43113', blockchainId: DISPATCH.blockchainId });
    expect(s.messages.map((m) => m.messageId)).toEqual([fuji[0]!.message.messageId]);
    s.form.either = '43114'; // EVM id of a registry chain resolves to its cb58 ID
    s.form.network = 'mainnet';
    s.form.source = C_CHAIN.blockchainId;
    expect(await s.apply()).toBe(true);
    expect(fake.callsOf('browseMessages')[1]).toMatchObject({ blockchainId: C_CHAIN.blockchainId });
  });

  it('shows a field error the core reports, and keeps other errors as a general alert', async () => {
    const { fake } = setupRenderer({ messages: many(3) });
    const s = useMessagesStore();
    fake.failNext('browseMessages', { kind: 'invalid_input', field: 'to', message: 'Recipient refused by the core.' });
    expect(await s.apply()).toBe(false);
    expect(s.fieldErrors.to).toBe('Recipient refused by the core.');
    fake.failNext('browseMessages', { kind: 'rate_limited', message: 'Rate limited.', retryAt: 1 });
    expect(await s.apply()).toBe(false);
    expect(s.error?.kind).toBe('rate_limited');
    expect(await s.apply()).toBe(true);
    expect(s.error).toBeNull();
  });

  it('drops a stale answer that arrives after a newer one', async () => {
    const { fake } = setupRenderer({ messages: many(6) });
    const s = useMessagesStore();
    const release = fake.hold('browseMessages');
    s.form.destination = 'DFK Chain';
    const slow = s.apply();
    s.form.destination = 'Beam';
    await s.apply();
    release();
    await slow;
    expect(s.messages.every((m) => (m as { destinationBlockchainId: string }).destinationBlockchainId === BEAM.blockchainId)).toBe(true);
  });

  it('auto-refreshes the first page on the injected clock by default, and stops when switched off', async () => {
    const { fake, clock } = setupRenderer({ messages: many(3) });
    const s = useMessagesStore();
    expect(s.autoRefresh).toBe(true);
    await s.apply();
    await clock.advance(AUTO_REFRESH_MS);
    await clock.advance(AUTO_REFRESH_MS);
    expect(fake.callsOf('browseMessages')).toHaveLength(3);
    s.setAutoRefresh(false);
    await clock.advance(AUTO_REFRESH_MS * 3);
    expect(fake.callsOf('browseMessages')).toHaveLength(3);
  });

  it('moves the keyboard selection within the page', async () => {
    setupRenderer({ messages: many(3) });
    const s = useMessagesStore();
    await s.apply();
    s.select(1);
    s.select(5);
    expect(s.selected).toBe(2);
    s.select(-10);
    expect(s.selected).toBe(0);
  });
});
