// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { useWatchlistStore } from '../../src/renderer/src/stores/watchlist';
import { BEAM, addr, message } from './fixtures';
import { setupRenderer } from './setup';

const alice = addr(1);

describe('watchlist store', () => {
  it('adds a checksummed address with label and notification choices, then edits and removes it', async () => {
    const { fake } = setupRenderer();
    const s = useWatchlistStore();
    await s.load();
    const w = await s.add({ address: alice.toLowerCase(), label: 'Treasury', network: 'mainnet', notify: { new: true, stuck: false } });
    expect(w?.address).toBe(alice); // the core checksums it
    expect(s.watches.map((x) => [x.address, x.label, x.notify.new, x.notify.stuck])).toEqual([[alice, 'Treasury', true, false]]);
    await s.update({ address: alice, label: 'Ops', notify: { stuck: true } });
    expect(s.watches[0]).toMatchObject({ label: 'Ops', notify: { new: true, stuck: true } });
    expect(await s.remove(alice)).toBe(true);
    expect(s.watches).toEqual([]);
    expect(fake.watches.size).toBe(0);
  });

  it('refuses a wrong checksum at the field without sending a request', async () => {
    const { fake } = setupRenderer();
    const s = useWatchlistStore();
    const wrongCase = '0x' + alice.slice(2).split('').map((c) => (/[a-f]/.test(c) ? c.toUpperCase() : /[A-F]/.test(c) ? c.toLowerCase() : c)).join('');
    expect(await s.add({ address: wrongCase })).toBeNull();
    expect(s.addErrors.address).toMatch(/invalid EIP-55 checksum.*did you mean/);
    expect(await s.add({ address: alice, label: 'x'.repeat(81) })).toBeNull();
    expect(s.addErrors.label).toBe('Label must be at most 80 characters.');
    expect(fake.calls).toEqual([]);
  });

  it('shows the core refusing a duplicate at the address field', async () => {
    setupRenderer();
    const s = useWatchlistStore();
    await s.add({ address: alice });
    expect(await s.add({ address: alice })).toBeNull();
    expect(s.addErrors.address).toMatch(/already on the watchlist/);
  });

  it('opens an address: its own message list, paged, and marks it viewed (unread resets)', async () => {
    const mine = Array.from({ length: 12 }, (_, i) => ({ message: message({ n: i + 1, from: i % 2 ? alice : addr(900 + i), to: i % 2 ? addr(50) : alice, dst: BEAM }), network: 'mainnet' as const }));
    const other = [{ message: message({ n: 99 }), network: 'mainnet' as const }];
    const { fake } = setupRenderer({ messages: [...mine, ...other] });
    const s = useWatchlistStore();
    await s.add({ address: alice });
    fake.watches.set(alice, { ...fake.watches.get(alice)!, unread: 4 });
    await s.load();
    expect(s.totalUnread).toBe(4);
    await s.open(alice);
    expect(s.addressPage?.messages).toHaveLength(10);
    expect(s.addressHasNext).toBe(true);
    await s.addressNext();
    expect(s.addressPage?.messages).toHaveLength(2);
    expect(s.watches[0]?.unread).toBe(0);
    expect(s.totalUnread).toBe(0);
    expect(fake.callsOf('markWatchViewed')).toEqual([{ address: alice }]);
  });

  it('adds and removes saved feeds, with the filter validated first', async () => {
    const { fake } = setupRenderer();
    const s = useWatchlistStore();
    expect(await s.addFeed({ name: 'Beam in', filter: {} })).toBeNull();
    expect(s.feedErrors.filter).toBe('A feed needs at least one filter.');
    expect(await s.addFeed({ name: 'Bad', filter: { from: '0x12' } })).toBeNull();
    expect(s.feedErrors.from).toMatch(/40 hex digits/);
    expect(fake.calls).toEqual([]);
    const f = await s.addFeed({ name: 'Beam in', filter: { destinationBlockchainId: BEAM.blockchainId } });
    expect(s.feeds.map((x) => x.name)).toEqual(['Beam in']);
    expect(await s.removeFeed(f!.id)).toBe(true);
    expect(s.feeds).toEqual([]);
  });

  it('reloads when the core says the watchlist changed', async () => {
    const { fake } = setupRenderer();
    const s = useWatchlistStore();
    await s.load();
    fake.handlers.addWatch({ address: alice, notify: {} });
    s.handleEvent({ type: 'watchlist-changed' });
    await new Promise((r) => setTimeout(r, 10));
    expect(s.watches.map((w) => w.address)).toEqual([alice]);
  });
});
