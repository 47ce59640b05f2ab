/**
 * Every filter and their combinations, over real HTTP against a store of simulated messages, checked
 * against a plain reference filter written here from the API's rules (not from the service's SQL).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { chainByBlockchainId, CHAIN_REGISTRY } from '../../src/shared/chains';
import { startLocalService, type SimulatedService } from '../../src/local-service/index';
import { get, query, sortTime, walk } from './helpers';

type Rec = Record<string, unknown>;
type Filters = Partial<Record<'network' | 'sourceBlockchainId' | 'destinationBlockchainId' | 'blockchainId' | 'from' | 'to', string>>;

let service: SimulatedService;
let all: Rec[];

beforeAll(async () => {
  service = await startLocalService({ rate: 0, preload: 3000, seed: 7, clock: new ManualClock(), rateLimitPerMinute: { keyed: 1e6, anonymous: 1e6 } });
  all = (await walk(`${service.url}/v1/teleporter/messages`, { pageSize: 100 })).messages;
});
afterAll(() => service.close());

const networkOf = (m: Rec): string | undefined =>
  (chainByBlockchainId(m.sourceBlockchainId as string) ?? chainByBlockchainId(m.destinationBlockchainId as string))?.network;
const chainMatches = (value: string, blockchainId: unknown, evmChainId: unknown) => (/^\d+$/.test(value) ? evmChainId === value : blockchainId === value);

function reference(f: Filters, address?: string): Rec[] {
  return all.filter((m) => {
    if (f.network && networkOf(m) !== (f.network === 'testnet' ? 'fuji' : f.network)) return false;
    if (f.sourceBlockchainId && !chainMatches(f.sourceBlockchainId, m.sourceBlockchainId, m.sourceEvmChainId)) return false;
    if (f.destinationBlockchainId && !chainMatches(f.destinationBlockchainId, m.destinationBlockchainId, m.destinationEvmChainId)) return false;
    if (f.blockchainId && m.sourceBlockchainId !== f.blockchainId && m.destinationBlockchainId !== f.blockchainId) return false;
    if (f.from && (m.from as string).toLowerCase() !== f.from.toLowerCase()) return false;
    if (f.to && (m.to as string).toLowerCase() !== f.to.toLowerCase()) return false;
    if (address && (m.from as string).toLowerCase() !== address.toLowerCase() && (m.to as string).toLowerCase() !== address.toLowerCase()) return false;
    return true;
  });
}

const ids = (ms: Rec[]) => ms.map((m) => m.messageId);

describe('list without filters', () => {
  it('returns every stored message once, newest first (source time, else destination time)', () => {
    expect(all.length).toBe(service.store.count());
    expect(new Set(ids(all)).size).toBe(all.length);
    for (let i = 1; i < all.length; i++) expect(sortTime(all[i - 1]!)).toBeGreaterThanOrEqual(sortTime(all[i]!));
    // The simulator's three variants are all present, and records without a source transaction sort by destination time.
    const statuses = new Set(all.map((m) => m.status));
    expect([...statuses].sort()).toEqual(['delivered', 'delivered_source_not_indexed', 'pending']);
  });

  it('uses page size 10 by default and serves the /v1/icm twin with icmContractAddress in place of teleporterContractAddress', async () => {
    const a = await get(`${service.url}/v1/teleporter/messages`);
    const b = await get(`${service.url}/v1/icm/messages`);
    const teleporter = (a.json as { messages: Rec[] }).messages;
    const icm = (b.json as { messages: Rec[] }).messages;
    expect(teleporter).toHaveLength(10);
    expect(ids(teleporter)).toEqual(ids(all.slice(0, 10)));
    expect(ids(icm)).toEqual(ids(teleporter));
    icm.forEach((m, i) => {
      const { teleporterContractAddress, icmContractAddress: _both, ...rest } = teleporter[i]!;
      expect(m).toEqual({ ...rest, icmContractAddress: teleporterContractAddress });
      expect(m).not.toHaveProperty('teleporterContractAddress');
    });
  });

  it('honours pageSize 1 and 100, and accepts a trailing slash', async () => {
    const one = await get(`${service.url}/v1/teleporter/messages/?pageSize=1`);
    expect(ids((one.json as { messages: Rec[] }).messages)).toEqual(ids(all.slice(0, 1)));
    const hundred = await get(`${service.url}/v1/teleporter/messages?pageSize=100`);
    expect(ids((hundred.json as { messages: Rec[] }).messages)).toEqual(ids(all.slice(0, 100)));
  });

  it('ignores unknown query parameters, like the public API', async () => {
    const r = await get(`${service.url}/v1/teleporter/messages?pageSize=3&sortOrder=asc&foo=bar`);
    expect(r.status).toBe(200);
    expect(ids((r.json as { messages: Rec[] }).messages)).toEqual(ids(all.slice(0, 3)));
  });
});

describe('each filter alone', () => {
  const cChain = CHAIN_REGISTRY.chains.find((c) => c.name === 'C-Chain' && c.network === 'mainnet')!;
  const dispatch = CHAIN_REGISTRY.chains.find((c) => c.name === 'Dispatch')!;
  const cases: [string, () => Filters][] = [
    ['network=mainnet', () => ({ network: 'mainnet' })],
    ['network=fuji', () => ({ network: 'fuji' })],
    ['sourceBlockchainId as cb58', () => ({ sourceBlockchainId: cChain.blockchainId })],
    ['sourceBlockchainId as EVM chain ID', () => ({ sourceBlockchainId: cChain.evmChainId })],
    ['destinationBlockchainId as cb58', () => ({ destinationBlockchainId: dispatch.blockchainId })],
    ['destinationBlockchainId as EVM chain ID', () => ({ destinationBlockchainId: dispatch.evmChainId })],
    ['blockchainId (either side)', () => ({ blockchainId: cChain.blockchainId })],
    ['from (hot address)', () => ({ from: service.simulator.hotAddresses[0]! })],
    ['to (hot address)', () => ({ to: service.simulator.hotAddresses[1]! })],
    ['from (cold address)', () => ({ from: service.simulator.addresses[150]! })],
  ];
  it.each(cases)('%s', async (_name, make) => {
    const f = make();
    const expected = reference(f);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all.length);
    const got = await walk(`${service.url}/v1/teleporter/messages`, { ...f, pageSize: 100 });
    expect(ids(got.messages)).toEqual(ids(expected));
  });

  it('treats testnet as fuji', async () => {
    const fuji = await walk(`${service.url}/v1/teleporter/messages`, { network: 'fuji', pageSize: 100 });
    const testnet = await walk(`${service.url}/v1/teleporter/messages`, { network: 'testnet', pageSize: 100 });
    expect(ids(testnet.messages)).toEqual(ids(fuji.messages));
    expect(fuji.messages.every((m) => chainByBlockchainId(m.sourceBlockchainId as string)?.network === 'fuji')).toBe(true);
  });

  it('matches from/to case-insensitively (checksummed, lower-case, upper-case)', async () => {
    const a = service.simulator.hotAddresses[2]!;
    const expected = ids(reference({ from: a }));
    for (const form of [a, a.toLowerCase(), '0x' + a.slice(2).toUpperCase()]) {
      const got = await walk(`${service.url}/v1/teleporter/messages`, { from: form, pageSize: 100 });
      expect(ids(got.messages)).toEqual(expected);
    }
  });

  it('returns an empty page for filters nothing matches (unknown chain, unused address, other network)', async () => {
    const unused = '0x000000000000000000000000000000000000dEaD';
    for (const f of [{ from: unused }, { sourceBlockchainId: '999999' }, { network: 'mainnet', sourceBlockchainId: dispatch.blockchainId }]) {
      const r = await get(`${service.url}/v1/teleporter/messages${query(f)}`);
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ messages: [] });
    }
  });
});

describe('filters combine with AND', () => {
  const keys = ['network', 'sourceBlockchainId', 'destinationBlockchainId', 'blockchainId', 'from', 'to'] as const;

  /** Values taken from a real message (so combinations are often non-empty), sometimes from another one. */
  function filtersFrom(m: Rec, other: Rec, pick: readonly boolean[], mix: readonly boolean[], evm: readonly boolean[]): Filters {
    const f: Filters = {};
    const src = (r: Rec, k: number) => (mix[k] ? other : r);
    keys.forEach((k, i) => {
      if (!pick[i]) return;
      const r = src(m, i);
      if (k === 'network') f.network = networkOf(r) === 'fuji' && evm[i] ? 'testnet' : networkOf(r)!;
      if (k === 'sourceBlockchainId') f.sourceBlockchainId = (evm[i] ? r.sourceEvmChainId : r.sourceBlockchainId) as string;
      if (k === 'destinationBlockchainId') f.destinationBlockchainId = (evm[i] ? r.destinationEvmChainId : r.destinationBlockchainId) as string;
      if (k === 'blockchainId') f.blockchainId = (evm[i] ? r.destinationBlockchainId : r.sourceBlockchainId) as string;
      if (k === 'from') f.from = evm[i] ? (r.from as string).toLowerCase() : (r.from as string);
      if (k === 'to') f.to = r.to as string;
    });
    return f;
  }

  it('every combination matches the reference filter (property)', async () => {
    const bools = fc.array(fc.boolean(), { minLength: 6, maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: all.length - 1 }),
        fc.nat({ max: all.length - 1 }),
        bools,
        bools,
        bools,
        fc.constantFrom(7, 25, 100),
        async (i, j, pick, mix, evm, pageSize) => {
          const f = filtersFrom(all[i]!, all[j]!, pick, mix, evm);
          const got = await walk(`${service.url}/v1/teleporter/messages`, { ...f, pageSize });
          expect(ids(got.messages)).toEqual(ids(reference(f)));
        },
      ),
      { numRuns: 80 },
    );
  });

  it('all 64 subsets of the six filters, from one message, each include that message', async () => {
    const m = all.find((r) => r.status === 'delivered' && r.from !== r.to)!;
    for (let mask = 0; mask < 64; mask++) {
      const pick = keys.map((_, i) => (mask & (1 << i)) !== 0);
      const f = filtersFrom(m, m, pick, [false, false, false, false, false, false], [false, false, false, false, false, false]);
      const got = await walk(`${service.url}/v1/teleporter/messages`, { ...f, pageSize: 100 });
      expect(ids(got.messages), JSON.stringify(f)).toEqual(ids(reference(f)));
      expect(ids(got.messages)).toContain(m.messageId);
    }
  });
});

describe('address operation', () => {
  it('returns messages where the address is sender OR recipient, each once, newest first', async () => {
    for (const a of [service.simulator.hotAddresses[0]!, service.simulator.addresses[60]!]) {
      const expected = reference({}, a);
      // Messages an address sends to itself must still come once.
      if (a === service.simulator.hotAddresses[0]) expect(expected.some((m) => m.from === a && m.to === a)).toBe(true);
      const got = await walk(`${service.url}/v1/teleporter/addresses/${a}/messages`, { pageSize: 50 });
      expect(ids(got.messages)).toEqual(ids(expected));
      const twin = await walk(`${service.url}/v1/icm/addresses/${a.toLowerCase()}/messages`, { pageSize: 50 });
      expect(ids(twin.messages)).toEqual(ids(expected));
    }
  });

  it('combines with network', async () => {
    const a = service.simulator.hotAddresses[1]!;
    for (const network of ['mainnet', 'fuji', 'testnet']) {
      const got = await walk(`${service.url}/v1/teleporter/addresses/${a}/messages`, { network, pageSize: 100 });
      const expected = reference({ network }, a);
      expect(expected.length).toBeGreaterThan(0);
      expect(ids(got.messages)).toEqual(ids(expected));
    }
  });

  it('ignores list-only filters on the address operation', async () => {
    const a = service.simulator.hotAddresses[3]!;
    const got = await walk(`${service.url}/v1/teleporter/addresses/${a}/messages`, { from: service.simulator.addresses[9]!, pageSize: 100 });
    expect(ids(got.messages)).toEqual(ids(reference({}, a)));
  });
});
