import { describe, expect, it } from 'vitest';
import { C_CHAIN } from '../helpers';
import { useStore } from './store-rig';

const episode = (startedAt: number) => ({
  key: `route-backlog:mainnet:${C_CHAIN}:x`,
  kind: 'route_backlog' as const,
  network: 'mainnet',
  subject: 'c-x',
  sourceChain: C_CHAIN,
  destinationChain: 'x',
  startedAt,
});
const text = { title: 'Route backlog: c-x', body: 'b' };

describe('relayer episodes and their outbox rows (real SQLite)', () => {
  const store = useStore();

  it('opens an episode once (one open per key, one row per key and start) and resolves it once, each with its notification', () => {
    const s = store();
    expect(s.relayerEpisodes.fire(episode(1000), 2000, text, true)).not.toBeNull();
    expect(s.relayerEpisodes.fire(episode(1000), 3000, text, true)).toBeNull(); // the same episode
    expect(s.relayerEpisodes.fire(episode(1500), 3000, text, true)).toBeNull(); // its key is still open
    const open = s.relayerEpisodes.open();
    expect([...open.values()].map((e) => e.startedAt)).toEqual([1000]);
    const id = open.get(episode(0).key)!.id;
    expect(s.relayerEpisodes.resolve(id, 4000, { title: 'cleared', body: '' }, true)).not.toBeNull();
    expect(s.relayerEpisodes.resolve(id, 5000, { title: 'cleared', body: '' }, true)).toBeNull();
    expect(s.relayerEpisodes.open().size).toBe(0);
    // After it resolved, the same start never fires again; a later start is a new episode.
    expect(s.relayerEpisodes.fire(episode(1000), 6000, text, true)).toBeNull();
    expect(s.relayerEpisodes.fire(episode(7000), 8000, text, true)).not.toBeNull();
    const shown = s.outbox.claim();
    expect(shown.map((n) => [n.title, n.transitionIds, n.messageId])).toEqual([
      ['Route backlog: c-x', [], undefined],
      ['cleared', [], undefined],
      ['Route backlog: c-x', [], undefined],
    ]);
  });

  it('lists every fire and resolve, announced or not; a quiet close as routine, in words', () => {
    const s = store();
    // Notifications off: kept and listed, never announced.
    const fired = s.relayerEpisodes.fire({ ...episode(1000), relayer: '0xabc' }, 2000, text, false);
    expect(fired).toMatchObject({ kind: 'alert', episodeKind: 'route_backlog', phase: 'fire', severity: 'warning', title: text.title, at: 2000 });
    const id = fired!.episodeId;
    const resolved = s.relayerEpisodes.resolve(id, 3000, { title: 'cleared', body: 'b' }, true);
    // The resolve names the relayer its fire named; its fire was never announced, so neither is it.
    expect(resolved).toMatchObject({ phase: 'resolve', severity: 'success', relayer: '0xabc', at: 3000 });
    expect(s.outbox.pendingCount()).toBe(0);
    const quiet = s.relayerEpisodes.fire(episode(4000), 4000, text, true)!;
    expect(s.relayerEpisodes.resolve(quiet.episodeId, 5000, null, true)).toMatchObject({
      severity: 'info',
      title: 'Route backlog closed: c-x',
      body: expect.stringMatching(/^No longer watched/),
    });
    // Announced: the fire only.
    expect(s.outbox.claim().map((n) => n.title)).toEqual(['Route backlog: c-x']);
    expect(s.alertEntries.list({ limit: 10 }).map((e) => `${e.phase}:${e.severity}`)).toEqual([
      'resolve:info',
      'fire:warning',
      'resolve:success',
      'fire:warning',
    ]);
    // Retention takes entries older than it, as it takes transitions.
    s.pruner.prune(3500);
    expect(s.alertEntries.list({ limit: 10 }).map((e) => e.at)).toEqual([5000, 4000]);
  });

  it('an undelivered episode notification does not stop retention from pruning old transitions', () => {
    const s = store();
    s.transitions.add({
      messageId: 'm'.repeat(64),
      kind: 'new',
      fromStatus: null,
      toStatus: 'pending',
      at: 100,
      network: 'mainnet',
      source: 'local',
      sourceBlockchainId: C_CHAIN,
      destinationBlockchainId: C_CHAIN,
      watchers: [],
    });
    s.relayerEpisodes.fire(episode(50), 60, text, true);
    expect(s.pruner.prune(500).transitions).toBe(1);
    // The open episode and its unshown notification stay.
    expect(s.relayerEpisodes.open().size).toBe(1);
    expect(s.outbox.pendingCount()).toBe(1);
  });
});
