import { describe, expect, it } from 'vitest';
import { relayerSilent, routeBacklog, stepEpisodes } from '../../../src/core/relayers/episodes';
import { backlogKey, evaluateConditions, silentKey } from '../../../src/core/relayers/conditions';
import { randomAddress } from '../helpers';
import { delivery, figuresOf, NOW, pending, relayer, route } from './records';

const MIN = 60_000;

describe('episode rules', () => {
  const base = { now: NOW, watchedSince: NOW - 600 * MIN, silentMinutes: 30, pendingMinutes: 10 };

  it('relayer silent: quiet for N minutes while a message on its routes has waited M minutes', () => {
    expect(relayerSilent({ ...base, lastDeliveryAt: NOW - 31 * MIN, oldestPendingOnItsRoutes: NOW - 11 * MIN })).toBe(true);
    expect(relayerSilent({ ...base, lastDeliveryAt: NOW - 29 * MIN, oldestPendingOnItsRoutes: NOW - 60 * MIN })).toBe(false);
    // Quiet, but nothing waits long enough: an idle route is no outage.
    expect(relayerSilent({ ...base, lastDeliveryAt: NOW - 60 * MIN, oldestPendingOnItsRoutes: NOW - 9 * MIN })).toBe(false);
    expect(relayerSilent({ ...base, lastDeliveryAt: NOW - 60 * MIN, oldestPendingOnItsRoutes: null })).toBe(false);
    // Silence counts from when watching began, not from a delivery long before.
    expect(relayerSilent({ ...base, watchedSince: NOW - 5 * MIN, lastDeliveryAt: NOW - 600 * MIN, oldestPendingOnItsRoutes: NOW - 60 * MIN })).toBe(false);
  });

  it('route backlog: the oldest pending message is older than T minutes', () => {
    expect(routeBacklog({ now: NOW, oldestPendingSince: NOW - 30 * MIN, backlogMinutes: 30 })).toBe(true);
    expect(routeBacklog({ now: NOW, oldestPendingSince: NOW - 29 * MIN, backlogMinutes: 30 })).toBe(false);
    expect(routeBacklog({ now: NOW, oldestPendingSince: null, backlogMinutes: 30 })).toBe(false);
  });

  it('an episode fires once while its condition holds and resolves once when it clears', () => {
    const watched = new Set(['a', 'b']);
    let open = new Set<string>();
    const seen: [string[], string[]][] = [];
    for (const holding of [[], ['a'], ['a'], ['a', 'b'], ['b'], [], []]) {
      const s = stepEpisodes(open, new Set(holding), watched);
      seen.push([s.fired, s.resolved]);
      open = s.open;
    }
    expect(seen).toEqual([
      [[], []],
      [['a'], []],
      [[], []],
      [['b'], []],
      [[], ['a']],
      [[], ['b']],
      [[], []],
    ]);
    // A key no longer watched is dropped without a resolve; one that holds but is not watched never fires.
    const s = stepEpisodes(new Set(['a']), new Set(['a', 'c']), new Set(['b']));
    expect(s).toEqual({ fired: [], resolved: [], open: new Set() });
  });

  it('evaluates both conditions from the figures: the silent relayer, not the busy one; the backlogged route', () => {
    const quiet = randomAddress();
    const busy = randomAddress();
    const deliveries = [
      delivery({ deliverer: quiet, sentAt: NOW - 62 * MIN, deliveredAt: NOW - 61 * MIN }),
      delivery({ deliverer: busy, sentAt: NOW - 2 * MIN, deliveredAt: NOW - MIN }),
    ];
    const backlogged = route('r', { backlogMinutes: 15 });
    const scope = { now: NOW, relayers: [relayer(quiet), relayer(busy), relayer(randomAddress(), { alert: false })], routes: [backlogged] };
    const c = evaluateConditions(scope, figuresOf(scope, deliveries, [pending(NOW - 20 * MIN)]));
    expect(c.watched).toEqual(new Set([silentKey('mainnet', quiet), silentKey('mainnet', busy), backlogKey(backlogged)]));
    expect(c.holding).toEqual(new Set([silentKey('mainnet', quiet), backlogKey(backlogged)]));
  });
});
