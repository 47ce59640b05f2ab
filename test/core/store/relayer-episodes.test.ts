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
    expect(s.relayerEpisodes.fire(episode(1000), 2000, text)).toBe(true);
    expect(s.relayerEpisodes.fire(episode(1000), 3000, text)).toBe(false); // the same episode
    expect(s.relayerEpisodes.fire(episode(1500), 3000, text)).toBe(false); // its key is still open
    const open = s.relayerEpisodes.open();
    expect([...open.values()].map((e) => e.startedAt)).toEqual([1000]);
    const id = open.get(episode(0).key)!.id;
    expect(s.relayerEpisodes.resolve(id, 4000, { title: 'cleared', body: '' })).toBe(true);
    expect(s.relayerEpisodes.resolve(id, 5000, { title: 'cleared', body: '' })).toBe(false);
    expect(s.relayerEpisodes.open().size).toBe(0);
    // After it resolved, the same start never fires again; a later start is a new episode.
    expect(s.relayerEpisodes.fire(episode(1000), 6000, text)).toBe(false);
    expect(s.relayerEpisodes.fire(episode(7000), 8000, text)).toBe(true);
    const shown = s.outbox.claim();
    expect(shown.map((n) => [n.title, n.transitionIds, n.messageId])).toEqual([
      ['Route backlog: c-x', [], undefined],
      ['cleared', [], undefined],
      ['Route backlog: c-x', [], undefined],
    ]);
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
    s.relayerEpisodes.fire(episode(50), 60, text);
    expect(s.pruner.prune(500).transitions).toBe(1);
    // The open episode and its unshown notification stay.
    expect(s.relayerEpisodes.open().size).toBe(1);
    expect(s.outbox.pendingCount()).toBe(1);
  });
});
