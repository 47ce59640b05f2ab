/** "Your own nodes" in the headless YAML config: accepted as the data source, each problem named at its line and field. */
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfigText } from '../../src/headless/config-file';
import { blockchainIdFor } from '../../src/devnet/chains';

const C_CHAIN = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
/** The devnet's two chains (EVM chain IDs 99901 and 99902), named Alpha and Beta in the file. */
const [ALPHA, BETA] = [blockchainIdFor(99901).cb58, blockchainIdFor(99902).cb58];
const ownChains = (evmChainIds: boolean) =>
  `dataSource:\n  ownNodes:\n    chains:\n` +
  [
    ['Alpha', ALPHA, '99901'],
    ['Beta', BETA, '99902'],
  ]
    .map(
      ([name, id, evm], i) =>
        `      - name: ${name}\n        rpcUrl: http://127.0.0.1:${9545 + i}\n        blockchainId: ${id}\n${evmChainIds ? `        evmChainId: "${evm}"\n` : ''}`,
    )
    .join('');

function problemsOf(text: string): { line: number | null; field: string; message: string }[] {
  try {
    parseConfigText(text, 'c.yaml');
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).problems;
  }
  throw new Error('expected the config to be refused');
}

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

  it("takes routes by the chains' configured names and EVM chain IDs, as their blockchain IDs", () => {
    const c = parseConfigText(`${ownChains(true)}routes:\n  - { source: alpha, destination: Beta }\n  - { source: "99902", destination: "99901" }\n`, 'c.yaml');
    expect(c.routes).toEqual([
      { source: ALPHA, destination: BETA },
      { source: BETA, destination: ALPHA },
    ]);
    // Nodes that do not say their EVM chain ID: the watcher learns them from the nodes at start and resolves the route then.
    expect(parseConfigText(`${ownChains(false)}routes:\n  - { source: "99901", destination: Beta }\n`, 'c.yaml').routes).toEqual([
      { source: '99901', destination: 'Beta' },
    ]);
  });

  it.each([
    ['by its configured names and by its blockchain IDs', `  - { source: Alpha, destination: Beta }\n  - { source: ${ALPHA}, destination: ${BETA} }`],
    ['by its EVM chain IDs and by a name', `  - { source: "99901", destination: "99902" }\n  - { source: alpha, destination: "99902" }`],
  ])('refuses one route listed twice, %s', (_how, routes) => {
    const text = `${ownChains(true)}routes:\n${routes}\n`;
    const line = text.split('\n').length - 1;
    expect(problemsOf(text)).toEqual([{ line, field: 'routes[1].destination', message: 'This route (Alpha → Beta) is already watched at routes[0].' }]);
  });

  it('refuses a route to a chain that is neither configured nor in the registry, saying what it takes', () => {
    const p = problemsOf(`${ownChains(true)}routes:\n  - { source: Alpha, destination: Gamma }\n`);
    expect(p).toEqual([
      expect.objectContaining({
        field: 'routes[0].destination',
        message: expect.stringMatching(/^Destination chain: "Gamma" is not a known chain \(Alpha, Beta, C-Chain, /),
      }),
    ]);
  });
});
