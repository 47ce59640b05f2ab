/**
 * The realistic world's behaviours, each on its own option: loose order within a second, sparse and
 * one-way routes, two messenger versions with overlapping nonces, no receipt re-sends unless asked.
 */
import { describe, expect, it } from 'vitest';
import { encodeAbiParameters, keccak256, toHex } from 'viem';
import { ManualClock } from '../../src/shared/clock';
import { CHAIN_REGISTRY } from '../../src/shared/chains';
import { decodeCb58 } from '../../src/shared/validators';
import { MESSENGERS } from '../../src/simulator/catalog';
import { QUIET_MEAN_GAP_MS } from '../../src/simulator/route-plan';
import { get, serve, walk } from '../local-service/helpers';

type Rec = Record<string, unknown>;
const START = Date.UTC(2026, 0, 1);
const ZERO = '0x0000000000000000000000000000000000000000';
const chain = (network: 'mainnet' | 'fuji', name: string) => CHAIN_REGISTRY.chains.find((c) => c.network === network && c.name === name)!.blockchainId;
const routeOf = (m: Rec) => `${m.sourceBlockchainId as string}>${m.destinationBlockchainId as string}`;

async function runFor(clock: ManualClock, minutes: number) {
  for (let t = 0; t < minutes * 60; t += 30) await clock.advance(30_000);
}

describe('the realistic profile is seeded', () => {
  async function run(seed: number) {
    const clock = new ManualClock(START);
    const s = await serve({ clock, seed, rate: 3, preload: 200, realistic: true });
    const changes: string[] = [];
    s.onRecordChange((batch) =>
      changes.push(...batch.map((c) => `${c.record.messageId as string} ${c.record.status as string} ${c.happenedAt} ${c.visibleAt}`)),
    );
    await runFor(clock, 5);
    const list = (await walk(`${s.url}/v1/teleporter/messages`, { pageSize: 100 })).messages;
    return { changes, list: JSON.stringify(list) };
  }

  it('gives the same changes, at the same times, and the same list for the same seed and clock steps; another seed differs', async () => {
    const a = await run(42);
    expect(a.changes.length).toBeGreaterThan(1000);
    expect(await run(42)).toEqual(a);
    expect((await run(43)).list).not.toBe(a.list);
  });
});

describe('loose order', () => {
  async function sameSecond(looseOrder: boolean) {
    const clock = new ManualClock(START);
    const s = await serve({ clock, looseOrder });
    const sent = Array.from({ length: 30 }, () => s.simulator.send({ network: 'mainnet', outcome: 'normal', deliveryDelayMs: 60_000 }));
    const listed = (await walk(`${s.url}/v1/teleporter/messages`, { pageSize: 100 })).messages.map((m) => m.messageId as string);
    const paged = (await walk(`${s.url}/v1/teleporter/messages`, { pageSize: 4 })).messages.map((m) => m.messageId as string);
    const late = s.simulator.send({ network: 'mainnet', outcome: 'normal', deliveryDelayMs: 60_000 });
    const after = (await walk(`${s.url}/v1/teleporter/messages`, { pageSize: 100 })).messages.map((m) => m.messageId as string);
    return { sent, listed, paged, late, after };
  }

  it('without it, records of one second are listed newest arrival first', async () => {
    const r = await sameSecond(false);
    expect(r.listed).toEqual([...r.sent].reverse());
    expect(r.after[0]).toBe(r.late);
  });

  it('with it, ties within a second come in an arbitrary order, a later arrival may land below earlier ones, and paging stays exact', async () => {
    const r = await sameSecond(true);
    expect(new Set(r.listed)).toEqual(new Set(r.sent));
    expect(r.listed).not.toEqual([...r.sent].reverse());
    expect(r.listed).not.toEqual(r.sent);
    expect(r.paged).toEqual(r.listed);
    expect(r.after.indexOf(r.late)).toBeGreaterThan(0);
    expect(r.after.filter((id) => id !== r.late)).toEqual(r.listed);
    // Seeded: the same IDs give the same order.
    expect((await sameSecond(true)).listed).toEqual(r.listed);
  });
});

describe('sparse routes', () => {
  it('busy traffic on a few routes, every quiet route a message every few minutes, one-way routes with nothing back', async () => {
    const clock = new ManualClock(START);
    const s = await serve({ clock, rate: 1, sparseRoutes: true, receiptResends: false });
    const plan = s.simulator.routes!;
    expect(plan.oneWay.length).toBeGreaterThanOrEqual(2);
    expect(plan.quiet.length).toBeGreaterThan(plan.oneWay.length);
    const info = (await get(`${s.url}/_local/info`)).json as { routes: { oneWay: { source: string; destination: string }[] } };
    expect(info.routes.oneWay).toEqual(plan.oneWay.map((r) => ({ source: r.source.blockchainId, destination: r.destination.blockchainId })));
    await runFor(clock, 30);
    const all = (await walk(`${s.url}/v1/teleporter/messages`, { pageSize: 100 })).messages;
    const perRoute = new Map<string, Rec[]>();
    for (const m of all) perRoute.set(routeOf(m), [...(perRoute.get(routeOf(m)) ?? []), m]);
    const key = (r: { source: { blockchainId: string }; destination: { blockchainId: string } }) => `${r.source.blockchainId}>${r.destination.blockchainId}`;
    const expected = (30 * 60_000) / QUIET_MEAN_GAP_MS; // ~10 per quiet route
    for (const r of plan.quiet) {
      const n = perRoute.get(key(r))?.length ?? 0;
      expect(n, key(r)).toBeGreaterThanOrEqual(2);
      expect(n, key(r)).toBeLessThanOrEqual(3 * expected);
    }
    for (const r of plan.oneWay) {
      expect(perRoute.has(`${r.destination.blockchainId}>${r.source.blockchainId}`)).toBe(false);
      // Their receipts wait on the destination for a message back that never comes.
      const delivered = (perRoute.get(key(r)) ?? []).filter((m) => m.status !== 'pending');
      expect(delivered.length).toBeGreaterThan(0);
      for (const m of delivered) expect(m.receiptDelivered).toBe(false);
    }
    // The busy routes carry most messages.
    const busy = new Set(Object.values(plan.busy).flatMap((rs) => rs.map(([r]) => key(r))));
    expect(all.filter((m) => busy.has(routeOf(m))).length).toBeGreaterThan(0.6 * all.length);
  });

  it('without it, every route of a network carries traffic both ways', async () => {
    const clock = new ManualClock(START);
    const s = await serve({ clock, rate: 1 });
    expect(s.simulator.routes).toBeNull();
    await runFor(clock, 30);
    const routes = new Set((await walk(`${s.url}/v1/teleporter/messages`, { pageSize: 100 })).messages.map(routeOf));
    const possible = (['mainnet', 'fuji'] as const).reduce((n, net) => {
      const k = CHAIN_REGISTRY.chains.filter((c) => c.network === net).length;
      return n + k * (k - 1);
    }, 0);
    expect(routes.size).toBe(possible);
  });
});

describe('two messenger versions', () => {
  const expectedId = (messenger: string, src: string, dst: string, nonce: string) =>
    keccak256(
      encodeAbiParameters(
        [{ type: 'address' }, { type: 'bytes32' }, { type: 'bytes32' }, { type: 'uint256' }],
        [messenger as `0x${string}`, toHex(decodeCb58(src)!), toHex(decodeCb58(dst)!), BigInt(nonce)],
      ),
    ).slice(2);

  it('send on one route with overlapping nonces, each ID computed with its own messenger address', async () => {
    const clock = new ManualClock(START);
    const s = await serve({ clock, messengerVersions: 2 });
    const [a, b] = [chain('mainnet', 'C-Chain'), chain('mainnet', 'Beam')];
    const v1 = s.simulator.send({ source: a, destination: b, messengerVersion: 1, outcome: 'normal', deliveryDelayMs: 2_000 });
    const v2 = s.simulator.send({ source: a, destination: b, messengerVersion: 2, outcome: 'normal', deliveryDelayMs: 2_000 });
    const [r1, r2] = [s.store.get(v1)!, s.store.get(v2)!];
    expect(r2.messageNonce).toBe(r1.messageNonce);
    expect([r1.teleporterContractAddress, r2.teleporterContractAddress]).toEqual([...MESSENGERS]);
    expect(v1).not.toBe(v2);
    expect(v1).toBe(expectedId(MESSENGERS[0], a, b, r1.messageNonce as string));
    expect(v2).toBe(expectedId(MESSENGERS[1], a, b, r2.messageNonce as string));
    // A receipt rides back only with its own messenger's traffic.
    await clock.advance(3_000);
    const back2 = s.simulator.send({ source: b, destination: a, messengerVersion: 2, outcome: 'normal' });
    expect(s.store.get(back2)!.receipts).toEqual([{ receivedMessageNonce: r2.messageNonce, relayerRewardAddress: expect.any(String) }]);
    const back1 = s.simulator.send({ source: b, destination: a, messengerVersion: 1, outcome: 'normal' });
    expect(s.store.get(back1)!.receipts).toEqual([{ receivedMessageNonce: r1.messageNonce, relayerRewardAddress: expect.any(String) }]);
    expect(s.store.get(back1)!.teleporterContractAddress).toBe(MESSENGERS[0]);
  });

  it('in spontaneous traffic, the same route and nonce occur under both messengers', async () => {
    const clock = new ManualClock(START);
    const s = await serve({ clock, rate: 5, messengerVersions: 2 });
    await runFor(clock, 10);
    const all = (await walk(`${s.url}/v1/teleporter/messages`, { pageSize: 100 })).messages;
    const byRouteNonce = new Map<string, Set<string>>();
    for (const m of all) {
      const k = `${m.sourceBlockchainId as string}|${m.messageNonce as string}`;
      byRouteNonce.set(k, (byRouteNonce.get(k) ?? new Set()).add(m.teleporterContractAddress as string));
    }
    expect([...byRouteNonce.values()].filter((set) => set.size === 2).length).toBeGreaterThan(10);
    for (const m of all)
      expect(m.messageId).toBe(
        expectedId(m.teleporterContractAddress as string, m.sourceBlockchainId as string, m.destinationBlockchainId as string, m.messageNonce as string),
      );
  });

  it('with one version every record names the first messenger, and version 2 is refused', async () => {
    const s = await serve({ clock: new ManualClock(START) });
    expect(s.store.get(s.simulator.send())!.teleporterContractAddress).toBe(MESSENGERS[0]);
    expect(() => s.simulator.send({ messengerVersion: 2 })).toThrow('messengerVersions: 2');
  });
});

describe('receipt re-sends', () => {
  async function lonelyReceipt(receiptResends: boolean | undefined, realistic = false) {
    const clock = new ManualClock(START);
    const s = await serve({ clock, realistic, ...(receiptResends === undefined ? {} : { receiptResends }), rateLimitPerMinute: undefined });
    const id = s.simulator.send({ source: chain('fuji', 'C-Chain'), destination: chain('fuji', 'Echo'), outcome: 'normal', deliveryDelayMs: 2_000, lagMs: 0 });
    for (let i = 0; i < 20; i++) await clock.advance(30_000);
    const resends = (await walk(`${s.url}/v1/teleporter/messages`, { pageSize: 100 })).messages.filter((m) => m.to === ZERO);
    return { receipted: s.store.get(id)!.receiptDelivered, resends: resends.length };
  }

  it('are off unless asked: a receipt with no traffic back stays missing', async () => {
    expect(await lonelyReceipt(false)).toEqual({ receipted: false, resends: 0 });
    expect(await lonelyReceipt(undefined, true)).toEqual({ receipted: false, resends: 0 });
  });

  it('when on (the default outside the realistic profile), a relayer sends the missing receipt back', async () => {
    expect(await lonelyReceipt(true)).toEqual({ receipted: true, resends: 1 });
    expect(await lonelyReceipt(undefined)).toEqual({ receipted: true, resends: 1 });
  });
});

describe('rate limit', () => {
  it('the realistic profile enforces the public unauthenticated plan without a key: 6,000 CU a minute, 300 list calls of 20 CU', async () => {
    const s = await serve({ realistic: true, rateLimitPerMinute: undefined, clock: new ManualClock(START) });
    const statuses: number[] = [];
    for (let i = 0; i < 301; i++) statuses.push((await get(`${s.url}/v1/teleporter/messages?pageSize=1`)).status);
    expect(statuses.filter((x) => x === 200)).toHaveLength(300);
    expect(statuses[300]).toBe(429);
    expect((await get(`${s.url}/v1/teleporter/messages?pageSize=1`)).headers.get('ratelimit-limit')).toBe('6000');
  });

  it('a limit given explicitly wins over the profile; a bad behaviour option is refused clearly', async () => {
    const s = await serve({ realistic: true, rateLimitPerMinute: { keyed: 10, anonymous: 3 } });
    expect(((await get(`${s.url}/_local/info`)).json as { computeUnits: unknown }).computeUnits).toEqual({
      keyed: { cuPerMinute: 200, cuPerDay: null },
      anonymous: { cuPerMinute: 60, cuPerDay: null },
    });
    await expect(serve({ messengerVersions: 3 as 2 })).rejects.toThrow('Invalid service option: messengerVersions: messengerVersions must be 1 or 2.');
  });
});
