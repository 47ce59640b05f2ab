import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { privateKeyToAddress } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { parseRelayerConfig, type RelayerConfigContext } from '../../../src/core/relayers/relayer-config';

const FIXTURES = join(__dirname, '../fixtures/relayer-config');
const read = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const CTX: RelayerConfigContext = { ownChains: [], network: 'mainnet' };
const C = 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp';
const DISPATCH = '2D8RG4UpSXbPbvPCAWppNJyqTG2i2CAXSkTgmTBBvs7GKNZjsY';

function problemsOf(text: string): string[] {
  const r = parseRelayerConfig(text, CTX);
  if (r.ok) throw new Error('expected the file to be refused');
  return r.problems;
}

describe('parseRelayerConfig', () => {
  it("refuses icm-services' published sample at its elided reward address and key, never quoting the key", () => {
    const problems = problemsOf(read('sample-relayer-config.json'));
    expect(problems).toEqual([
      'destination-blockchains[0].account-private-key: not a private key (64 hex digits); its value is not shown',
      'source-blockchains[0].message-contracts.0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf.settings.reward-address: not an address (0x and 40 hex digits): "0x5072..."',
    ]);
    expect(problems.join('\n')).not.toContain('0x7493');
  });

  it('reads the filled sample: relayers per reward address, every route served, wallets from keys, ports, skipped key fields', () => {
    const r = parseRelayerConfig(read('relayer-config-with-keys.json'), CTX);
    if (!r.ok) throw new Error(r.problems.join('\n'));
    const p = r.plan;
    expect(p.network).toBe('fuji'); // the registry knows Fuji's C-Chain
    expect(p.metricsPort).toBe(9191);
    expect(p.apiPort).toBe(8181);
    expect(p.relayers.map((x) => x.address)).toEqual(['0x5072AEA42F27a7bD2F3E5fBB93EEeF7Ea0C6F6C2', '0xd81545385803bCD83bd59f58Ba2d2c0562387F83']);
    // The C-Chain source lists no supported destinations: it serves every destination but itself;
    // Dispatch (written as 0x hex) serves the one it lists.
    expect(p.routes).toEqual([
      { source: C, destination: DISPATCH, label: 'C-Chain (Fuji) → Dispatch (Fuji)' },
      { source: DISPATCH, destination: C, label: 'Dispatch (Fuji) → C-Chain (Fuji)' },
    ]);
    const top = privateKeyToAddress('0x7844d43879fb78027457215e368ebe9284bd7512d661e65b0b56218e0aef15bb');
    const byChain = (id: string) => p.wallets.filter((w) => w.blockchainId === id).map((w) => w.address);
    expect(byChain(DISPATCH)).toEqual([privateKeyToAddress('0xcc844efbcc9ff87e17518d93a4ba5735df3a45317321850d960783ff47901957'), top]);
    expect(byChain(C)).toEqual([
      privateKeyToAddress('0x12389e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8123'),
      privateKeyToAddress('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a'),
      top,
    ]);
    expect(p.walletsToType).toEqual([{ blockchainId: C, chainName: 'C-Chain (Fuji)', why: 'signs with a KMS key: type its address' }]);
    expect(p.messengers).toEqual([
      { blockchainId: C, address: '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf' },
      { blockchainId: DISPATCH, address: '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf' },
    ]);
    expect(p.skipped).toEqual([
      'account-private-key',
      'destination-blockchains[0].account-private-key',
      'destination-blockchains[1].account-private-keys-list',
      'destination-blockchains[1].kms-key-id',
      'destination-blockchains[1].kms-keys',
    ]);
    // Nothing of the signing material or the endpoints' secrets is in what the app keeps.
    const kept = JSON.stringify(p);
    for (const secret of ['7844d438', 'cc844efb', '12389e99', '5de4111a', 'kms-secret', 'rpc-query-secret', 'rpc-header-secret', 'https://'])
      expect(kept).not.toContain(secret);
  });

  it('names your own chains and defaults the ports (9090, 8080) as the relayer does', () => {
    const cfg = JSON.parse(read('relayer-config-with-keys.json')) as Record<string, unknown>;
    delete cfg['metrics-port'];
    delete cfg['api-port'];
    const r = parseRelayerConfig(JSON.stringify(cfg), { network: 'mainnet', ownChains: [{ blockchainId: DISPATCH, name: 'my-dispatch' }] });
    if (!r.ok) throw new Error(r.problems.join('\n'));
    expect([r.plan.metricsPort, r.plan.apiPort]).toEqual([9090, 8080]);
    expect(r.plan.routes.map((x) => x.label)).toEqual(['C-Chain (Fuji) → my-dispatch', 'my-dispatch → C-Chain (Fuji)']);
    expect(r.plan.wallets.find((w) => w.blockchainId === DISPATCH)?.label).toBe('relayer wallet on my-dispatch');
  });

  it('names the field of each problem', () => {
    const cfg = JSON.parse(read('relayer-config-with-keys.json')) as {
      'source-blockchains': Record<string, unknown>[];
      'destination-blockchains': Record<string, unknown>[];
    };
    cfg['source-blockchains'][1]!['blockchain-id'] = 'not-an-id';
    cfg['source-blockchains'][0]!['supported-destinations'] = [{ 'blockchain-id': 'S4mMqUXe7vHsGiRAma6bv3CKnyaLssyAxmQ2KvFpX1KEvfFCD' }];
    cfg['destination-blockchains'][1]!['account-private-keys-list'] = ['0x1234'];
    (cfg as Record<string, unknown>)['metrics-port'] = 'ninety';
    expect(problemsOf(JSON.stringify(cfg))).toEqual([
      'metrics-port: not a port number (0 to 65535): "ninety"',
      'destination-blockchains[1].account-private-keys-list[0]: not a private key (64 hex digits); its value is not shown',
      'source-blockchains[0].supported-destinations[0].blockchain-id: S4mMqUXe7vHsGiRAma6bv3CKnyaLssyAxmQ2KvFpX1KEvfFCD is not one of destination-blockchains',
      'source-blockchains[1].blockchain-id: not a cb58 or 0x blockchain ID: "not-an-id"',
    ]);
    expect(problemsOf('{"source-blockchains": [')[0]).toMatch(/^file: not JSON/);
    expect(problemsOf('[]')).toEqual(['file: a relayer config is a JSON object with source-blockchains and destination-blockchains']);
    expect(problemsOf('{}')).toEqual([
      'destination-blockchains: required: a list of at least one destination blockchain',
      'source-blockchains: required: a list of at least one source blockchain',
    ]);
  });

  it('asks for the wallet of a destination without keys in the file (keys from ACCOUNT_PRIVATE_KEY… variables)', () => {
    const cfg = JSON.parse(read('relayer-config-with-keys.json')) as Record<string, unknown> & { 'destination-blockchains': Record<string, unknown>[] };
    delete cfg['account-private-key'];
    delete cfg['destination-blockchains'][0]!['account-private-key'];
    const r = parseRelayerConfig(JSON.stringify(cfg), CTX);
    if (!r.ok) throw new Error(r.problems.join('\n'));
    expect(r.plan.walletsToType.find((w) => w.blockchainId === DISPATCH)?.why).toBe(
      `no key in the file (ACCOUNT_PRIVATE_KEY_${DISPATCH} on the relayer's host?): type its address`,
    );
  });
});
