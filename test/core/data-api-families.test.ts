/**
 * The client against both path families: ICM and teleporter records as known variants from the real
 * service, fallback between families on 404 (and back), remembered; lookup by ID; a wrong-typed
 * nextPageToken; a page token that expires mid-scan (the service's own expiry on a manual clock).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { RequestBudget } from '../../src/core/data-api/budget';
import { DataApiClient } from '../../src/core/data-api/client';
import type { PathFamily } from '../../src/core/data-api/path-family';
import { PoolRegistry } from '../../src/core/data-api/pools';
import { createLogger } from '../../src/core/log/logger';
import { CycleBudget, scan } from '../../src/core/poller/scan';
import { startLocalService, type SimulatedService } from '../../src/local-service';
import { apiRecord, engineRig, tempDir } from './helpers';
import { scriptedServer } from './http-helpers';

const pools = new PoolRegistry();
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await pools.close();
});

function client(url: string, clock: ManualClock, family: PathFamily, network: 'mainnet' | 'fuji' = 'mainnet') {
  return new DataApiClient({
    baseUrl: url,
    network,
    pool: pools.get(url),
    budget: new RequestBudget(clock, 100_000),
    clock,
    logger: createLogger(),
    apiKey: () => null,
    apiKeyHeader: 'x-glacier-api-key',
    family,
    maxRetries: 0,
  });
}

async function service(clock: ManualClock, preload = 400): Promise<SimulatedService> {
  const s = await startLocalService({ clock, preload, seed: 7, rate: 0, rateLimitPerMinute: { keyed: 1_000_000, anonymous: 1_000_000 } });
  cleanups.push(() => s.close());
  return s;
}

describe('both record shapes', () => {
  it('reads ICM and teleporter pages of the real service as the same known variants', async () => {
    const clock = new ManualClock();
    const s = await service(clock);
    const icm = await client(s.url, clock, 'icm').listMessages({ pageSize: 100 });
    const tel = await client(s.url, clock, 'teleporter').listMessages({ pageSize: 100 });
    if (!icm.ok || !tel.ok) throw new Error('a page failed');
    expect(icm.value.messages.map((m) => m.status)).toEqual(tel.value.messages.map((m) => m.status));
    expect(icm.value.messages.some((m) => m.status === 'unknown')).toBe(false);
    expect(new Set(icm.value.messages.map((m) => m.status))).toEqual(new Set(['pending', 'delivered', 'delivered_source_not_indexed']));
    expect(icm.value.messages[0]).toHaveProperty('icmContractAddress');
  });

  it('keeps a record with an unknown status or a new field, and names a nextPageToken of the wrong type', async () => {
    const clock = new ManualClock();
    let token: unknown = 'next';
    const srv = await scriptedServer(clock, () => ({
      status: 200,
      body: {
        messages: [apiRecord({ status: 'relayed', extra: { brandNew: 1 } }), apiRecord({ status: 'pending', extra: { brandNew: 2 } })],
        nextPageToken: token,
      },
    }));
    cleanups.push(srv.close);
    const c = client(srv.url, clock, 'icm');
    const r = await c.listMessages();
    expect(r.ok && r.value.messages.map((m) => m.status)).toEqual(['unknown', 'pending']);
    expect(r.ok && (r.value.messages[1] as Record<string, unknown>).brandNew).toBe(2);
    token = 42;
    const bad = await c.listMessages();
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatchObject({
      kind: 'invalid_response',
      message: expect.stringContaining('sent nextPageToken as a number (42); the Data API sends a string'),
    });
  });
});

describe('path family fallback', () => {
  it('falls back from ICM to teleporter on 404, remembers it, and goes back when only ICM answers', async () => {
    const clock = new ManualClock();
    let serves: PathFamily = 'teleporter';
    const srv = await scriptedServer(clock, (req) =>
      req.url.pathname.startsWith(`/v1/${serves}/`)
        ? { status: 200, body: { messages: [apiRecord({ status: 'pending' })] } }
        : { status: 404, body: { message: `Cannot GET ${req.url.pathname}`, statusCode: 404, error: 'Not Found' } },
    );
    cleanups.push(srv.close);
    const c = client(srv.url, clock, 'icm');
    expect((await c.listMessages()).ok).toBe(true);
    expect(srv.requests.map((r) => r.url.pathname)).toEqual(['/v1/icm/messages', '/v1/teleporter/messages']);
    expect(c.paths.current).toBe('teleporter');
    expect((await c.listAddressMessages('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).ok).toBe(true);
    expect(srv.requests[2]!.url.pathname).toBe('/v1/teleporter/addresses/0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed/messages');
    serves = 'icm';
    expect((await c.listMessages()).ok).toBe(true);
    expect(srv.requests.slice(3).map((r) => r.url.pathname)).toEqual(['/v1/teleporter/messages', '/v1/icm/messages']);
    expect(c.paths.current).toBe('icm');
    // Neither family: the first family's 404 is the answer.
    serves = 'none' as PathFamily;
    const r = await c.listMessages();
    expect(!r.ok && r.error.kind).toBe('not_found');
  });
});

describe('lookup by ID', () => {
  it('finds a message in either family, with or without 0x, and says "no message" for an unknown ID', async () => {
    const clock = new ManualClock();
    const s = await service(clock, 100);
    const page = await client(s.url, clock, 'teleporter').listMessages({ pageSize: 5 });
    const id = page.ok ? page.value.messages[0]!.messageId : '';
    for (const family of ['icm', 'teleporter'] as const) {
      const c = client(s.url, clock, family, 'fuji'); // no network parameter: found whatever the client's network
      const r = await c.getMessage(`0x${id}`);
      expect(r.ok && r.value.messageId).toBe(id);
      expect(r.ok && r.value.status).not.toBe('unknown');
      const missing = await c.getMessage('ef'.repeat(32));
      expect(missing).toEqual({
        ok: false,
        error: { kind: 'not_found', status: 404, message: `${new URL(s.url).host} has no message with ID ${'ef'.repeat(32)} on any network.` },
      });
    }
  });
});

describe('page token expiry mid-scan', () => {
  it('restarts from the first page when the service says the token expired: the same transitions as an unbroken scan, none twice', async () => {
    const clock = new ManualClock();
    const s = await service(clock, 1500);
    const address = s.simulator.hotAddresses[0]!;
    const c = client(s.url, clock, 'teleporter');
    await clock.advance(25 * 3600 * 1000); // every preloaded message reaches its final state first (rate 0: nothing new)
    const run = async (expireBeforePage: number | null) => {
      const tmp = tempDir();
      const rig = engineRig(tmp.dir);
      cleanups.push(() => (rig.close(), tmp.cleanup()));
      rig.watch(address);
      let calls = 0;
      const fired: string[] = [];
      const r = await scan(
        async (token) => {
          if (++calls === expireBeforePage) await clock.advance(25 * 3600 * 1000);
          return c.listAddressMessages(address, { pageSize: 10, ...(token ? { pageToken: token } : {}) });
        },
        {
          network: 'mainnet',
          engine: rig.engine,
          messages: rig.store.messages,
          cycle: new CycleBudget(1000),
          pageSize: 10,
          maxPages: 1000,
          onTransitions: (t) => fired.push(...t.map((x) => `${x.messageId}:${x.kind}`)),
          next: () => true,
        },
      );
      return { r, fired, calls };
    };
    const unbroken = await run(null);
    const broken = await run(3);
    expect(unbroken.r.pages).toBeGreaterThan(3);
    expect(broken.r.restarted).toBe(true);
    expect(broken.r.error).toBeNull();
    expect(broken.r.exhausted).toBe(true);
    expect(broken.calls).toBe(unbroken.calls + 3); // pages 1-2, the refused request, then the whole list again from the head
    expect(new Set(broken.fired).size).toBe(broken.fired.length);
    expect([...broken.fired].sort()).toEqual([...unbroken.fired].sort());
    expect(broken.fired.length).toBeGreaterThan(0);
  });
});
