/** The start line's counts and `--check`'s list, from a parsed config file. */
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/headless/config-file';
import { describeWatches, watchCounts, watchNames } from '../../src/headless/watch-summary';

const A = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const B = '0xc690fD4bBA37FB861c6270cc85FC7dD36c72A11A';

describe('watch summary', () => {
  it('counts with the right plurals', () => {
    const none = parseConfigText('network: mainnet', 'c.yaml');
    expect(watchCounts(none)).toBe('0 addresses, 0 relayers, 0 routes and 0 feeds');
    const some = parseConfigText(
      [
        'watches:',
        `  - address: "${A}"`,
        `  - address: "${B}"`,
        'relayers:',
        `  - address: "${B}"`,
        'routes:',
        '  - { source: C-Chain, destination: Beam }',
        '  - { source: Beam, destination: C-Chain }',
        'feeds:',
        '  - { name: all, filter: { sourceBlockchainId: 2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5 } }',
      ].join('\n'),
      'c.yaml',
    );
    expect(watchCounts(some)).toBe('2 addresses, 1 relayer, 2 routes and 1 feed');
  });

  it('names what the start line counts: the first three of each kind, then how many more; safe for a console', () => {
    const relayers = ['Swift', 'Blinker', 'Tortoise', 'Usurper', 'Steady A'].map(
      (label, i) => `  - { address: "0x${String(i + 1).padStart(40, '0')}", label: ${label} }`,
    );
    const c = parseConfigText(
      [
        'watches:',
        `  - { address: "${A}", label: "evil\\u001b[31mred\\nforged line" }`,
        `  - { address: "${B}", label: "${'x'.repeat(60)}" }`,
        'relayers:',
        ...relayers,
        'routes:',
        '  - { source: C-Chain, destination: Beam }',
      ].join('\n'),
      'c.yaml',
    );
    const line = watchNames(c);
    expect(line).toBe(
      `2 addresses (evil<U+001B>[31mred<U+000A>forg…, ${'x'.repeat(31)}…), 5 relayers (Swift, Blinker, Tortoise and 2 more), 1 route (C-Chain → Beam) and 0 feeds`,
    );
    expect(line).not.toMatch(/\p{Cc}/u);
    expect(watchNames(parseConfigText(`watches:\n  - address: "${A}"`, 'c.yaml'))).toBe('1 address (0x8db9…52FC), 0 relayers, 0 routes and 0 feeds');
  });

  it('names every relayer and route with the network and thresholds the watcher will use', () => {
    const c = parseConfigText(
      [
        'network: fuji',
        'relayerSilentMinutes: 20',
        'relayers:',
        `  - { address: "${B}", label: ours, pendingMinutes: 5 }`,
        `  - { address: "${A}", network: mainnet, alert: false }`,
        'routes:',
        '  - { source: C-Chain, destination: Dispatch, backlogMinutes: 15 }',
      ].join('\n'),
      'c.yaml',
    );
    expect(describeWatches(c)).toEqual([
      'relayer  ours (0xc690…A11A) on fuji: silent alert after 20 min, pending after 5 min',
      'relayer  0x8db9…52FC on mainnet: no alerts',
      'route    C-Chain (Fuji) → Dispatch (Fuji) on fuji: backlog alert after 15 min',
    ]);
  });
});
