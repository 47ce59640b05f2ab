import { describe, expect, it } from 'vitest';
import {
  parseBlockchainId,
  parseChainRef,
  parseEvmAddress,
  parseEvmChainId,
  parseNetwork,
  parsePageSize,
  toChecksumAddress,
  decodeCb58,
} from '../../src/shared/validators';
import { encodeCb58 } from '../../src/shared/validators';
import { CHAIN_REGISTRY, findChain, isAllowedExternalUrl } from '../../src/shared/chains';

describe('EVM addresses', () => {
  // Vectors from EIP-55.
  const vectors = ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB'];
  it('computes EIP-55 checksums', () => {
    for (const v of vectors) expect(toChecksumAddress(v.toLowerCase())).toBe(v);
  });
  it('accepts lower-case and checksummed input, normalising to the checksum', () => {
    expect(parseEvmAddress(vectors[0]!.toLowerCase())).toEqual({ ok: true, value: vectors[0] });
    expect(parseEvmAddress(vectors[1])).toEqual({ ok: true, value: vectors[1] });
  });
  it('refuses a wrong checksum with the corrected form', () => {
    const bad = '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    const r = parseEvmAddress(bad);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(vectors[0]);
  });
  it('says what is wrong with malformed input', () => {
    expect(parseEvmAddress('')).toMatchObject({ ok: false, error: 'Address is required.' });
    expect(parseEvmAddress('5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toMatchObject({ ok: false, error: 'Address must start with 0x.' });
    expect(parseEvmAddress('0x1234')).toMatchObject({ ok: false, error: expect.stringContaining('40 hex digits (got 4)') });
    expect(parseEvmAddress('0xZZaeb6053F3E94C9b9A09f33669435E7Ef1BeAed').ok).toBe(false);
  });
});

describe('cb58 blockchain IDs', () => {
  it('every registry chain has a valid cb58 ID and a decimal EVM chain ID, unique both ways', () => {
    for (const c of CHAIN_REGISTRY.chains) {
      expect(parseBlockchainId(c.blockchainId), c.name).toEqual({ ok: true, value: c.blockchainId });
      expect(parseEvmChainId(c.evmChainId).ok).toBe(true);
    }
    expect(new Set(CHAIN_REGISTRY.chains.map((c) => c.blockchainId)).size).toBe(CHAIN_REGISTRY.chains.length);
    expect(new Set(CHAIN_REGISTRY.chains.map((c) => c.evmChainId)).size).toBe(CHAIN_REGISTRY.chains.length);
  });
  it('round-trips encode/decode', () => {
    const payload = new Uint8Array(32).map((_, i) => i * 7);
    expect(decodeCb58(encodeCb58(payload))).toEqual(payload);
  });
  it('refuses a changed character (checksum), a foreign alphabet and a wrong length', () => {
    const id = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
    expect(parseBlockchainId(id.slice(0, -1) + '6')).toMatchObject({ ok: false, error: expect.stringContaining('checksum') });
    expect(parseBlockchainId('0OIl')).toMatchObject({ ok: false, error: expect.stringContaining('base58 alphabet') });
    expect(parseBlockchainId(encodeCb58(new Uint8Array(20)))).toMatchObject({ ok: false, error: expect.stringContaining('32 bytes') });
  });
  it('chain refs accept cb58 or EVM chain IDs', () => {
    expect(parseChainRef('43114')).toEqual({ ok: true, value: { kind: 'evmChainId', value: '43114' } });
    expect(parseChainRef('yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp')).toMatchObject({ ok: true, value: { kind: 'blockchainId' } });
    expect(parseChainRef('0123').ok).toBe(false);
    expect(parseChainRef('not-a-chain').ok).toBe(false);
  });
  it('looks chains up by ID, EVM chain ID and name', () => {
    expect(findChain('43114')?.name).toBe('C-Chain');
    expect(findChain('dispatch', 'testnet')?.evmChainId).toBe('779672');
    expect(findChain('C-Chain', 'fuji')?.evmChainId).toBe('43113');
  });
});

describe('page size, network and external links', () => {
  it('enforces 1..100 with the API wording', () => {
    expect(parsePageSize(undefined)).toEqual({ ok: true, value: 10 });
    expect(parsePageSize('100')).toEqual({ ok: true, value: 100 });
    expect(parsePageSize(101)).toEqual({ ok: false, error: 'pageSize must not be greater than 100.' });
    expect(parsePageSize(0)).toEqual({ ok: false, error: 'pageSize must not be less than 1.' });
    expect(parsePageSize('1.5').ok).toBe(false);
  });
  it('knows the three networks', () => {
    expect(parseNetwork('testnet').ok).toBe(true);
    expect(parseNetwork('devnet').ok).toBe(false);
  });
  it('opens only https explorer links', () => {
    expect(isAllowedExternalUrl('https://subnets.avax.network/c-chain/tx/0xabc')).toBe(true);
    expect(isAllowedExternalUrl('http://subnets.avax.network/c-chain')).toBe(false);
    expect(isAllowedExternalUrl('https://evil.example/subnets.avax.network')).toBe(false);
    expect(isAllowedExternalUrl('https://user@snowtrace.io/')).toBe(false);
    expect(isAllowedExternalUrl('javascript:alert(1)')).toBe(false);
  });
});
