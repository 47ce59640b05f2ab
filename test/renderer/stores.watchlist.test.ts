// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { useWatchlistStore } from '../../src/renderer/src/stores/watchlist';
import { BEAM } from './fixtures';
import { setupRealRenderer, until } from './real-core';

const HOUR = 3_600_000;

describe('watchlist store (real core)', () => {
  it('adds a checksummed address with label and notification choices, then edits and removes it', async () => {
    const { service, transport } = await setupRealRenderer();
    const alice = service.simulator.addresses[0]!;
    const s = useWatchlistStore();
    await s.load();
    const w = await s.add({ address: alice.toLowerCase(), label: 'Treasury', network: 'mainnet', notify: { new: true, stuck: false } });
    expect(w?.address).toBe(alice); // the core checksums it
    expect(s.watches.map((x) => [x.address, x.label, x.notify.new, x.notify.stuck])).toEqual([[alice, 'Treasury', true, false]]);
    await s.update({ address: alice, label: 'Ops', notify: { stuck: true } });
    expect(s.watches[0]).toMatchObject({ label: 'Ops', notify: { new: true, stuck: true } });
    expect(await s.remove(alice)).toBe(true);
    expect(s.watches).toEqual([]);
    expect(await transport.invoke('listWatches', undefined)).toEqual({ ok: true, value: [] });
  });

  it('refuses a wrong checksum at the field without sending a request', async () => {
    const { service, transport } = await setupRealRenderer();
    const alice = service.simulator.addresses[0]!;
    const s = useWatchlistStore();
    const wrongCase =
      '0x' +
      alice
        .slice(2)
        .split('')
        .map((c) => (/[a-f]/.test(c) ? c.toUpperCase() : /[A-F]/.test(c) ? c.toLowerCase() : c))
        .join('');
    expect(await s.add({ address: wrongCase })).toBeNull();
    expect(s.addErrors.address).toMatch(/invalid EIP-55 checksum.*did you mean/);
    expect(await s.add({ address: alice, label: 'x'.repeat(81) })).toBeNull();
    expect(s.addErrors.label).toBe('Label must be at most 80 characters.');
    expect(transport.calls).toEqual([]);
  });

  it('shows the core refusing a duplicate at the address field', async () => {
    const { service } = await setupRealRenderer();
    const s = useWatchlistStore();
    await s.add({ address: service.simulator.addresses[0]! });
    expect(await s.add({ address: service.simulator.addresses[0]! })).toBeNull();
    expect(s.addErrors.address).toMatch(/already on the watchlist/);
  });

  it("applies a poll cycle's batch in place: unread counts without reading the watchlist again; opening resets them", async () => {
    const { service, transport, clock, poll } = await setupRealRenderer();
    const alice = service.simulator.addresses[0]!;
    const s = useWatchlistStore();
    await s.add({ address: alice });
    await poll(); // the silent baseline
    for (let i = 0; i < 12; i++) {
      await clock.advance(1000); // real traffic never shares a timestamp
      service.simulator.send({ outcome: 'normal', from: alice, destination: BEAM.blockchainId, deliveryDelayMs: HOUR });
    }
    const reads = transport.callsOf('listWatches').length;
    await clock.advance(1000);
    await poll();
    await until(() => expect(s.totalUnread).toBe(12));
    expect(transport.callsOf('listWatches').length).toBe(reads);
    await s.open(alice);
    expect(s.addressPage?.messages).toHaveLength(10);
    expect(s.addressHasNext).toBe(true);
    await s.addressNext();
    expect(s.addressPage?.messages).toHaveLength(2);
    expect(s.watches[0]?.unread).toBe(0);
    expect(s.totalUnread).toBe(0);
    expect(transport.callsOf('markWatchViewed')).toEqual([{ address: alice }]);
  });

  it("redraws the open address's page from the core's cache after a poll: a changed row in place and a new message on top, with no Data API request", async () => {
    const { service, transport, clock, poll } = await setupRealRenderer();
    const alice = service.simulator.addresses[0]!;
    const s = useWatchlistStore();
    await s.add({ address: alice });
    await poll(); // the silent baseline
    const send = async (deliveryDelayMs: number) => {
      await clock.advance(1000);
      return service.simulator.send({ outcome: 'normal', from: alice, destination: BEAM.blockchainId, deliveryDelayMs, receiptDelayMs: 10 * HOUR });
    };
    const older = await send(60_000);
    await clock.advance(1000);
    await poll();
    await s.open(alice);
    expect(s.addressPage?.messages.map((m) => [m.messageId, m.status])).toEqual([[older, 'pending']]);
    const newer = await send(HOUR);
    await clock.advance(2 * 60_000);
    await poll(); // left_pending for the shown one, new for the other; the batch has been delivered
    const requests = service.requestCount();
    await until(() =>
      expect(s.addressPage?.messages.map((m) => [m.messageId, m.status])).toEqual([
        [newer, 'pending'],
        [older, 'delivered'],
      ]),
    );
    expect(service.requestCount()).toBe(requests); // the redraw spent nothing of the request budget
    expect(transport.callsOf('browseAddressMessages')).toHaveLength(1);
    expect((transport.callsOf('getMessage') as { messageId: string }[]).map((c) => c.messageId).sort()).toEqual([older, newer].sort());
  });

  it('adds and removes saved feeds, with the filter validated first', async () => {
    const { transport } = await setupRealRenderer();
    const s = useWatchlistStore();
    expect(await s.addFeed({ name: 'Beam in', filter: {} })).toBeNull();
    expect(s.feedErrors.filter).toBe('A feed needs at least one filter.');
    expect(await s.addFeed({ name: 'Bad', filter: { from: '0x12' } })).toBeNull();
    expect(s.feedErrors.from).toMatch(/40 hex digits/);
    expect(transport.calls).toEqual([]);
    const f = await s.addFeed({ name: 'Beam in', filter: { destinationBlockchainId: BEAM.blockchainId } });
    expect(s.feeds.map((x) => x.name)).toEqual(['Beam in']);
    expect(await s.removeFeed(f!.id)).toBe(true);
    expect(s.feeds).toEqual([]);
  });

  it('reloads when the core says the watchlist changed, one read at a time however many changes arrive', async () => {
    const { core, service, transport } = await setupRealRenderer();
    const s = useWatchlistStore();
    await s.load();
    // Baselines cannot finish (a watch going live is another watchlist change): only the three adds count.
    service.setFaults('5xx:1');
    const release = transport.hold('listWatches');
    const before = transport.callsOf('listWatches').length;
    // Added behind the UI's back (as another window would): three watchlist-changed events.
    for (const address of service.simulator.addresses.slice(0, 3)) await core.invoke('addWatch', { address });
    expect(transport.callsOf('listWatches').length).toBe(before + 1); // the first read is in flight; the rest wait
    release();
    await until(() => expect(s.watches.map((w) => w.address).sort()).toEqual(service.simulator.addresses.slice(0, 3).sort()));
    expect(transport.callsOf('listWatches').length).toBe(before + 2); // one follow-up read for all of them
  });
});
