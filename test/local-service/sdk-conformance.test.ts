/**
 * Conformance: the official SDK (@avalabs/avacloud-sdk, which validates every response with its zod
 * models) as a real client of the real local service. Every operation of both path families, every
 * network, every filter, page sizes 1/10/100, the SDK's page iterator, errors through the SDK's own
 * error classes, the key in the SDK's own header. Any response the SDK rejected would throw
 * ResponseValidationError; the last test checks that every 200 answer became an SDK result.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as errors from '@avalabs/avacloud-sdk/models/errors/index.js';
import { ManualClock } from '../../src/shared/clock';
import { CHAIN_REGISTRY } from '../../src/shared/chains';
import { startLocalService, type SimulatedService } from '../../src/local-service/index';
import { sdkFor, type SdkRig } from './sdk-client';

const KEY = 'conformance-key-0123456789';
const NETWORKS = ['mainnet', 'fuji', 'testnet'] as const;
const PAGE_SIZES = [1, 10, 100] as const;

let service: SimulatedService;
const clock = new ManualClock();
let rig: SdkRig;
/** Results the SDK returned (pages or single messages): each one passed its validation. */
let validated = 0;
const count = <T>(r: T): T => {
  validated++;
  return r;
};

beforeAll(async () => {
  service = await startLocalService({
    clock,
    preload: 3000,
    seed: 11,
    rate: 0,
    apiKeys: [KEY],
    requireKey: true,
    rateLimitPerMinute: { keyed: 1_000_000, anonymous: 1_000_000 },
  });
  rig = sdkFor(service.url, KEY);
});
afterAll(() => service.close());

type Msg = {
  messageId: string;
  status: string;
  from: string;
  to: string;
  sourceBlockchainId: string;
  destinationBlockchainId: string;
  sourceEvmChainId: string;
  destinationEvmChainId: string;
};
type IcmLike = Msg & { icmContractAddress: string };

const teleporterList = async (req: Record<string, unknown>) => count((await rig.sdk.data.teleporter.listTeleporterMessages(req, rig.opts)).result);
const icmList = async (req: Record<string, unknown>) => count((await rig.sdk.data.icm.list(req, rig.opts)).result);

describe('list operations, both families', () => {
  it.each(NETWORKS.flatMap((n) => PAGE_SIZES.map((p) => [n, p] as const)))(
    'network %s, pageSize %i: the SDK accepts both families and they list the same messages',
    async (network, pageSize) => {
      const t = await teleporterList({ network, pageSize });
      const i = await icmList({ network, pageSize });
      expect(t.messages).toHaveLength(pageSize);
      expect(i.messages.map((m) => m.messageId)).toEqual(t.messages.map((m) => m.messageId));
      const chains = new Set(CHAIN_REGISTRY.chains.filter((c) => c.network === (network === 'mainnet' ? 'mainnet' : 'fuji')).map((c) => c.blockchainId));
      for (const m of t.messages as Msg[]) expect(chains.has(m.sourceBlockchainId)).toBe(true);
      for (const m of i.messages as IcmLike[]) expect(m.icmContractAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    },
  );

  it('every filter, alone and combined, in both families', async () => {
    const sample = (await teleporterList({ network: 'mainnet', pageSize: 100 })).messages as Msg[];
    const m = sample.find((x) => x.status === 'delivered')!;
    const filters: Record<string, string>[] = [
      { sourceBlockchainId: m.sourceBlockchainId },
      { sourceBlockchainId: m.sourceEvmChainId },
      { destinationBlockchainId: m.destinationBlockchainId },
      { destinationBlockchainId: m.destinationEvmChainId },
      { blockchainId: m.sourceBlockchainId },
      { from: m.from },
      { to: m.to },
      { sourceBlockchainId: m.sourceEvmChainId, destinationBlockchainId: m.destinationBlockchainId, from: m.from },
    ];
    for (const f of filters) {
      const t = await teleporterList({ network: 'mainnet', pageSize: 100, ...f });
      const i = await icmList({ network: 'mainnet', pageSize: 100, ...f });
      expect(t.messages.map((x) => x.messageId)).toContain(m.messageId);
      expect(i.messages.map((x) => x.messageId)).toEqual(t.messages.map((x) => x.messageId));
      for (const x of t.messages as Msg[]) {
        if (f.from) expect(x.from.toLowerCase()).toBe(f.from.toLowerCase());
        if (f.to) expect(x.to.toLowerCase()).toBe(f.to.toLowerCase());
        if (f.blockchainId) expect([x.sourceBlockchainId, x.destinationBlockchainId]).toContain(f.blockchainId);
      }
    }
  });

  it('by address, both families, every network and page size', async () => {
    const address = service.simulator.hotAddresses[0]!;
    for (const network of NETWORKS) {
      for (const pageSize of PAGE_SIZES) {
        const t = count(await rig.sdk.data.teleporter.listTeleporterMessagesByAddress({ address, network, pageSize }, rig.opts));
        const i = count(await rig.sdk.data.icm.listByAddress({ address, network, pageSize }, rig.opts));
        expect(t.messages.length).toBeGreaterThan(0);
        expect(i.messages.map((x) => x.messageId)).toEqual(t.messages.map((x) => x.messageId));
        for (const x of t.messages as Msg[]) expect([x.from.toLowerCase(), x.to.toLowerCase()]).toContain(address.toLowerCase());
      }
    }
  });

  it('the SDK page iterator walks a whole filtered list in both families, each message once, newest first', async () => {
    const filter = { network: 'fuji' as const, sourceBlockchainId: '43113', pageSize: 100 };
    const walk = async (pages: AsyncIterable<{ result: { messages: { messageId: string }[] } }>) => {
      const ids: string[] = [];
      for await (const page of pages) ids.push(...count(page.result).messages.map((x) => x.messageId));
      return ids;
    };
    const t = await walk(await rig.sdk.data.teleporter.listTeleporterMessages(filter, rig.opts));
    const i = await walk(await rig.sdk.data.icm.list(filter, rig.opts));
    expect(t.length).toBeGreaterThan(100); // more than one page
    expect(new Set(t).size).toBe(t.length);
    expect(i).toEqual(t);
  });
});

describe('single message, both families', () => {
  it('gets each variant by ID, with and without 0x', async () => {
    const sample = (await teleporterList({ network: 'mainnet', pageSize: 100 })).messages as Msg[];
    const statuses = ['pending', 'delivered', 'delivered_source_not_indexed'];
    for (const status of statuses) {
      const m = sample.find((x) => x.status === status)!;
      expect(m, status).toBeDefined();
      const t = count(await rig.sdk.data.teleporter.getTeleporterMessage({ messageId: m.messageId }, rig.opts));
      const i = count(await rig.sdk.data.icm.get({ messageId: `0x${m.messageId}` }, rig.opts));
      expect(t.status).toBe(status);
      expect('teleporterContractAddress' in t && t.teleporterContractAddress).toMatch(/^0x/);
      expect(i.messageId).toBe(m.messageId);
      expect(i.icmContractAddress).toMatch(/^0x/);
    }
  });
});

describe('errors through the SDK error classes', () => {
  it('NotFound for an unknown ID, BadRequest for a malformed ID, a page size over 100 or a forged page token', async () => {
    const unknown = 'cd'.repeat(32);
    await expect(rig.sdk.data.icm.get({ messageId: unknown }, rig.opts)).rejects.toBeInstanceOf(errors.NotFound);
    await expect(rig.sdk.data.teleporter.getTeleporterMessage({ messageId: unknown }, rig.opts)).rejects.toMatchObject({ statusCode: 404, error: 'Not Found' });
    const bad = rig.sdk.data.icm.get({ messageId: 'xyz' }, rig.opts);
    await expect(bad).rejects.toBeInstanceOf(errors.BadRequest);
    await expect(bad).rejects.toMatchObject({
      data$: { message: ['messageId: Message ID must be 64 hex digits, with or without 0x (it has characters other than 0-9 and a-f).'] },
    });
    await expect(rig.sdk.data.icm.list({ pageSize: 101 }, rig.opts)).rejects.toBeInstanceOf(errors.BadRequest);
    await expect(rig.sdk.data.teleporter.listTeleporterMessages({ pageToken: 'forged.token' }, rig.opts)).rejects.toBeInstanceOf(errors.BadRequest);
  });

  it("the key travels in the SDK's own header; Unauthorized without it or with a wrong one", async () => {
    const before = rig.exchanges.length;
    await teleporterList({ pageSize: 1 });
    expect(rig.exchanges[before]!.headers.get('x-glacier-api-key')).toBe(KEY);
    await expect(sdkFor(service.url).sdk.data.icm.list({ pageSize: 1 }, rig.opts)).rejects.toMatchObject({
      statusCode: 401,
      data$: { message: expect.stringContaining('Missing API key') },
    });
    const wrong = sdkFor(service.url, 'not-the-key').sdk.data.icm.list({ pageSize: 1 }, rig.opts);
    await expect(wrong).rejects.toBeInstanceOf(errors.Unauthorized);
    await expect(wrong).rejects.toMatchObject({ data$: { message: expect.stringContaining('Invalid API key') } });
  });

  it('TooManyRequests, InternalServerError, BadGateway and ServiceUnavailable from injected faults', async () => {
    const expectations: [string, new (...a: never[]) => Error][] = [
      ['429:1,retryAfter:2', errors.TooManyRequests],
      ['5xx:1', errors.InternalServerError],
    ];
    try {
      for (const [spec, cls] of expectations) {
        service.setFaults(spec);
        await expect(rig.sdk.data.icm.list({ pageSize: 1 }, rig.opts)).rejects.toBeInstanceOf(cls);
      }
      // 5xx faults draw 500, 502 and 503: collect classes until each has been seen.
      service.setFaults('5xx:1');
      const seen = new Set<string>();
      for (let n = 0; n < 60 && seen.size < 3; n++) {
        const e = await rig.sdk.data.teleporter.listTeleporterMessages({ pageSize: 1 }, rig.opts).catch((x: unknown) => x);
        seen.add((e as Error).constructor.name);
      }
      expect([...seen].sort()).toEqual(['BadGateway', 'InternalServerError', 'ServiceUnavailable']);
    } finally {
      service.setFaults(null);
    }
  });
});

describe('page token expiry through the SDK', () => {
  it('a token older than 24 hours of service time gets BadRequest saying it expired', async () => {
    const first = await icmList({ pageSize: 5 });
    expect(first.nextPageToken).toBeTruthy();
    await clock.advance(25 * 3600 * 1000);
    const late = rig.sdk.data.icm.list({ pageSize: 5, pageToken: first.nextPageToken }, rig.opts);
    await expect(late).rejects.toBeInstanceOf(errors.BadRequest);
    await expect(late).rejects.toMatchObject({ data$: { message: [expect.stringContaining('pageToken has expired')] } });
  });
});

describe('validation coverage', () => {
  it('every 200 answer of this suite passed the SDK validation (it returned a result for each)', () => {
    const ok = rig.exchanges.filter((e) => e.status === 200).length;
    expect(ok).toBeGreaterThan(60);
    expect(validated).toBe(ok);
  });
});

describe('the realistic profile', () => {
  it('every record of a realistic world (lag, loose order, sparse routes, two messengers) passes the SDK, both families', async () => {
    const realClock = new ManualClock(Date.UTC(2026, 2, 1));
    const real = await startLocalService({ clock: realClock, realistic: true, seed: 12, rate: 2, preload: 300, apiKeys: [KEY], requireKey: true });
    try {
      for (let t = 0; t < 10 * 60; t += 30) await realClock.advance(30_000);
      const r = sdkFor(real.url, KEY);
      const seen: Msg[] = [];
      let pages = 0;
      for (const network of ['mainnet', 'fuji'] as const) {
        const req = { network, pageSize: 100 };
        for await (const page of await r.sdk.data.teleporter.listTeleporterMessages(req, r.opts)) {
          pages++;
          seen.push(...(page.result.messages as Msg[]));
        }
        for await (const page of await r.sdk.data.icm.list(req, r.opts)) {
          pages++;
          expect(page.result.messages.length).toBeGreaterThan(0);
        }
      }
      expect(seen.length).toBe(real.store.count());
      expect(r.exchanges.filter((e) => e.status === 200)).toHaveLength(pages);
      // The SDK models the source-not-indexed variant as an ICM record: its messenger is in icmContractAddress.
      const messengers = new Set(
        seen.map(
          (m) =>
            (m as Msg & { teleporterContractAddress?: string; icmContractAddress?: string }).teleporterContractAddress ?? (m as IcmLike).icmContractAddress,
        ),
      );
      expect(messengers.size).toBe(2);
      expect(new Set(seen.map((m) => m.status))).toEqual(new Set(['pending', 'delivered', 'delivered_source_not_indexed']));
    } finally {
      await real.close();
    }
  }, 60_000);
});
