/** The relayer config `npm run devnet` writes reads back, through the import's parser, as the devnet's relayer, wallet and routes. */
import { privateKeyToAddress } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { parseRelayerConfig } from '../../src/core/relayers/relayer-config';
import { blockchainIdFor, KEYS } from '../../src/devnet/chains';
import type { Devnet } from '../../src/devnet/devnet';
import { DEVNET_RELAYER_METRICS_PORT, relayerConfigJson } from '../../src/devnet/relayer-config-file';

const chain = (name: string, evm: number, port: number) => ({
  name,
  rpcUrl: `http://127.0.0.1:${port}`,
  wsUrl: `ws://127.0.0.1:${port}`,
  evmChainId: evm,
  blockchainId: blockchainIdFor(evm).cb58,
  messenger: '0x5FbDB2315678afecb367f032d93F642f64180aa3' as const,
});

describe('the devnet relayer config', () => {
  it("is the relayer's format: its reward address, its wallet from the anvil key (the key itself skipped), both routes", () => {
    const relayer = privateKeyToAddress(KEYS.relayer);
    const devnet: Devnet = {
      chains: [chain('devnet-a', 99901, 9545), chain('devnet-b', 99902, 9546)],
      sender: privateKeyToAddress(KEYS.sender),
      relayer,
      sent: () => 0,
      stop: async () => {},
      relayerMetricsUrl: null,
    };
    const text = relayerConfigJson(devnet);
    expect(text).toContain(KEYS.relayer); // written as the relayer expects its key field
    const [a, b] = devnet.chains;
    const own = devnet.chains.map((c) => ({ blockchainId: c.blockchainId, name: c.name }));
    const r = parseRelayerConfig(text, { ownChains: own, network: 'mainnet' });
    if (!r.ok) throw new Error(r.problems.join('\n'));
    expect(r.plan).toMatchObject({
      network: 'mainnet',
      metricsPort: DEVNET_RELAYER_METRICS_PORT,
      relayers: [{ address: relayer }],
      routes: [
        { source: a.blockchainId, destination: b.blockchainId, label: 'devnet-a → devnet-b' },
        { source: b.blockchainId, destination: a.blockchainId, label: 'devnet-b → devnet-a' },
      ],
      wallets: [
        { address: relayer, chainName: 'devnet-a' },
        { address: relayer, chainName: 'devnet-b' },
      ],
      walletsToType: [],
      skipped: ['destination-blockchains[0].account-private-key', 'destination-blockchains[1].account-private-key'],
    });
    expect(JSON.stringify(r.plan)).not.toContain(KEYS.relayer.slice(2));
  });
});
