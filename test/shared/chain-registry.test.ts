/**
 * resources/chains.json against a second public source per chain (test/shared/fixtures/chain-registry-sources.json,
 * Ava Labs' builders-hub chain list, with avalanchego where it names the chain): a blockchain ID that is
 * really a subnet ID, or that the source does not give, fails here.
 */
import { describe, expect, it } from 'vitest';
import { hex } from '@scure/base';
import { CHAIN_REGISTRY, chainLabel, findChain, type ChainInfo } from '../../src/shared/chains';
import { parseBlockchainId } from '../../src/shared/validators';
import sources from './fixtures/chain-registry-sources.json';
import { encodeCb58 } from '../../src/shared/validators';

/** The Primary Network's subnet (the C-Chain's): a valid cb58 ID that is never a blockchain. */
const PRIMARY_NETWORK_SUBNET = '11111111111111111111111111111111LpoYY';

interface SourceEntry {
  network: string;
  evmChainId: string;
  blockchainIdAsPublished: string;
  subnetId: string;
  alsoIn?: { blockchainId: string; subnetId?: string }[];
}
const entries: SourceEntry[] = sources.chains;
/** A source's ID in cb58, whether it wrote cb58 or 32-byte hex. */
const asCb58 = (id: string): string => (/^0x[0-9a-fA-F]{64}$/.test(id) ? encodeCb58(hex.decode(id.slice(2).toLowerCase())) : id);
const sourceFor = (c: ChainInfo) => entries.find((e) => e.network === c.network && e.evmChainId === c.evmChainId);
const knownSubnetIds = new Set([
  PRIMARY_NETWORK_SUBNET,
  ...entries.flatMap((e) => [e.subnetId, ...(e.alsoIn ?? []).flatMap((a) => (a.subnetId ? [a.subnetId] : []))]),
]);

describe('the chain registry against a second source', () => {
  it('has a second source for every chain', () => {
    for (const c of CHAIN_REGISTRY.chains) expect(sourceFor(c), `${c.name} (${c.network}, ${c.evmChainId})`).toBeDefined();
  });

  it('never gives a subnet ID as a blockchain ID', () => {
    for (const c of CHAIN_REGISTRY.chains)
      expect(knownSubnetIds.has(c.blockchainId), `${c.name} (${c.network}) has a subnet ID as its blockchain ID`).toBe(false);
  });

  it('gives the blockchain ID every source gives', () => {
    for (const c of CHAIN_REGISTRY.chains) {
      const s = sourceFor(c)!;
      const published = [s.blockchainIdAsPublished, ...(s.alsoIn ?? []).map((a) => a.blockchainId)].map(asCb58);
      for (const id of published) {
        expect(parseBlockchainId(id).ok, `${id} from the source is a 32-byte cb58 ID`).toBe(true);
        expect(c.blockchainId, `${c.name} (${c.network})`).toBe(id);
      }
    }
  });

  it('names Dexalot on Fuji by its blockchain ID, not its subnet ID (issue 18)', () => {
    const dexalotFuji = findChain('Dexalot', 'fuji')!;
    expect(dexalotFuji.blockchainId).toBe(asCb58(sourceFor(dexalotFuji)!.blockchainIdAsPublished));
    expect(chainLabel(dexalotFuji.blockchainId)).toBe('Dexalot (Fuji)');
    expect(findChain(sourceFor(dexalotFuji)!.subnetId)).toBeUndefined();
  });

  it('reads hex the way the sources write it (the conversion the checks rely on)', () => {
    // avalanchego's Fuji C-Chain ID, as builders-hub writes it in hex.
    expect(asCb58('0x7fc93d85c6d62c5b2ac0b519c87010ea5294012d1e407030d6acd0021cac10d5')).toBe('yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp');
  });
});
