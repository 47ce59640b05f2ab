/**
 * The one resolver of chain input (issue 41): every way a person names a chain becomes its cb58
 * blockchain ID, or an error that names the field and says what it takes; and the one label that
 * shows it again by name.
 */
import { describe, expect, it } from 'vitest';
import { hex } from '@scure/base';
import { resolveChainInput, resolveRouteInput, routeIdentity } from '../../src/shared/chain-input';
import { chainLabel, ownChainsOf, routeLabel, type OwnChain } from '../../src/shared/chains';
import { decodeCb58, encodeCb58 } from '../../src/shared/validators';

const C_CHAIN = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
const C_CHAIN_FUJI = 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp';
const BEAM = '2tmrrBo1Lgt1mzzvPSFt73kkQKFas5d1AP88tv9cicwoFp8BSn';
/** Two own chains as Settings saves them (the devnet's EVM chain IDs), one without the name it may be given. */
const ALPHA = encodeCb58(new Uint8Array(32).fill(1));
const BETA = encodeCb58(new Uint8Array(32).fill(2));
const own: OwnChain[] = [
  { name: 'Alpha', blockchainId: ALPHA, evmChainId: '99901' },
  { blockchainId: BETA, evmChainId: '99902' },
];
const hexOf = (cb58: string) => `0x${hex.encode(decodeCb58(cb58)!)}`;
const resolved = (input: string, ctx = {}) => resolveChainInput(input, 'Source chain', ctx);

describe('resolveChainInput', () => {
  it('resolves every form of one chain to its cb58 ID', () => {
    const forms = ['C-Chain', ' c-chain ', C_CHAIN, ` ${C_CHAIN}`, hexOf(C_CHAIN), hexOf(C_CHAIN).toUpperCase().replace('0X', '0x'), '43114'];
    for (const f of forms) expect(resolved(f, { network: 'mainnet' }), f).toEqual({ ok: true, value: C_CHAIN });
    // A registry name within the route's network (`testnet` is Fuji); an EVM chain ID names one chain on any.
    expect(resolved('C-Chain', { network: 'testnet' })).toEqual({ ok: true, value: C_CHAIN_FUJI });
    expect(resolved('43113', { network: 'mainnet' })).toEqual({ ok: true, value: C_CHAIN_FUJI });
    expect(resolved('beam')).toEqual({ ok: true, value: BEAM });
  });

  it("takes your own chains' configured names and EVM chain IDs while they are the data source", () => {
    expect(resolved('alpha', { ownChains: own })).toEqual({ ok: true, value: ALPHA });
    expect(resolved('99901', { ownChains: own })).toEqual({ ok: true, value: ALPHA });
    expect(resolved('99902', { ownChains: own })).toEqual({ ok: true, value: BETA });
    expect(resolved(hexOf(BETA), { ownChains: own })).toEqual({ ok: true, value: BETA });
    // Not your own nodes as the source: the name means nothing.
    expect(resolved('Alpha', { network: 'mainnet' })).toEqual({
      ok: false,
      error:
        'Source chain: "Alpha" is not a known chain (C-Chain, Beam, DFK Chain, Dexalot, Gunzilla), a cb58 or 0x blockchain ID, or a known chain\'s EVM chain ID.',
    });
  });

  it('refuses what it cannot resolve, naming the field and what it takes', () => {
    expect(resolved('')).toEqual({ ok: false, error: 'Source chain is required.' });
    expect(resolved('12345', { network: 'fuji', ownChains: own })).toEqual({
      ok: false,
      error:
        "Source chain: no chain the app knows has EVM chain ID 12345 (it knows Alpha, C-Chain, Dispatch, Echo, Dexalot). Enter the chain's cb58 or 0x blockchain ID instead.",
    });
    expect(resolved('0', { network: 'mainnet' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Source chain \(EVM chain ID\) must be a positive whole number/),
    });
    expect(resolved('Dispatch', { network: 'mainnet' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Source chain: "Dispatch" is not a known chain \(C-Chain, Beam/),
    });
    // A long text is a mistyped ID: its own error first, then what the field takes.
    expect(resolved(`${C_CHAIN.slice(0, -1)}6`)).toMatchObject({ ok: false, error: expect.stringMatching(/cb58 checksum.* Enter a known chain \(/) });
    expect(resolved(`0x${'ab'.repeat(31)}`)).toMatchObject({ ok: false, error: expect.stringMatching(/^Source chain \(blockchain ID\) must be a cb58/) });
  });
});

describe('resolveRouteInput', () => {
  it('resolves both chains, and refuses one chain named twice at the destination', () => {
    expect(resolveRouteInput({ source: 'Alpha', destination: '99902' }, { ownChains: own })).toEqual({ ok: true, source: ALPHA, destination: BETA });
    expect(resolveRouteInput({ source: 'C-Chain', destination: '43114' }, { network: 'mainnet' })).toEqual({
      ok: false,
      problems: [{ field: 'destination', message: 'A route goes from one chain to another: pick a different destination chain.' }],
    });
    expect(resolveRouteInput({ source: 'Narnia', destination: '' })).toMatchObject({
      ok: false,
      problems: [
        { field: 'source', message: expect.stringMatching(/^Source chain: "Narnia" is not a known chain/) },
        { field: 'destination', message: 'Destination chain is required.' },
      ],
    });
  });

  it('gives one identity to a route whatever its network was called', () => {
    expect(routeIdentity('testnet', ALPHA, BETA)).toBe(routeIdentity('fuji', ALPHA, BETA));
    expect(routeIdentity('mainnet', ALPHA, BETA)).not.toBe(routeIdentity('fuji', ALPHA, BETA));
  });
});

describe('chainLabel and routeLabel', () => {
  it("show your own chain's configured name, else the registry's, else a short ID", () => {
    expect(routeLabel(ALPHA, C_CHAIN, own)).toBe('Alpha → C-Chain');
    expect(chainLabel('99901', own)).toBe('Alpha');
    expect(chainLabel(BETA, own)).toBe(`${BETA.slice(0, 6)}…${BETA.slice(-4)}`);
    expect(chainLabel(C_CHAIN_FUJI, own)).toBe('C-Chain (Fuji)');
    expect(routeLabel(ALPHA, BETA)).toBe(`${ALPHA.slice(0, 6)}…${ALPHA.slice(-4)} → ${BETA.slice(0, 6)}…${BETA.slice(-4)}`);
  });

  it('knows your own chains only while they are the data source', () => {
    const ownNodes = { kind: 'ownNodes', ownNodes: { chains: own } };
    expect(ownChainsOf(ownNodes)).toEqual(own);
    expect(ownChainsOf({ kind: 'local' })).toEqual([]);
  });
});
