/** "Your own nodes" in the headless YAML config: accepted as the data source, each problem named at its line and field. */
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfigText } from '../../src/headless/config-file';

const C_CHAIN = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';

describe('headless config: own nodes', () => {
  it('accepts the chains as the data source, with defaults', () => {
    const c = parseConfigText(
      `dataSource:\n  ownNodes:\n    chains:\n      - rpcUrl: http://127.0.0.1:8545\n        blockchainId: ${C_CHAIN}\n        wsUrl: ws://127.0.0.1:8546\n    confirmations: 2\n`,
      'c.yaml',
    );
    expect(c.dataSource).toEqual({
      kind: 'ownNodes',
      ownNodes: {
        chains: [{ rpcUrl: 'http://127.0.0.1:8545', blockchainId: C_CHAIN, wsUrl: 'ws://127.0.0.1:8546' }],
        confirmations: 2,
        pollIntervalMs: 2000,
        requestTimeoutMs: 15000,
      },
    });
  });

  it.each([
    ['a bad RPC URL', `      - rpcUrl: ftp://x\n        blockchainId: ${C_CHAIN}`, /RPC URL must be a full http:\/\/ or https:\/\/ URL/],
    ['a bad blockchain ID', `      - rpcUrl: http://x\n        blockchainId: nope`, /cb58/],
    ['a bad messenger', `      - rpcUrl: http://x\n        blockchainId: ${C_CHAIN}\n        messengers: ["0x12"]`, /Messenger address/],
    ['an unknown key', `      - rpcUrl: http://x\n        blockchainId: ${C_CHAIN}\n        rpc: http://y`, /./],
  ])('names %s', (_what, chain, message) => {
    let problems: { message: string; path: string }[] = [];
    try {
      parseConfigText(`dataSource:\n  ownNodes:\n    chains:\n${chain}\n`, 'c.yaml');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      problems = (e as ConfigError).problems as unknown as { message: string; path: string }[];
    }
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.map((p) => p.message).join(' ')).toMatch(message);
  });
});
