/**
 * Receipts hinted by the messages that carry them back, against the real local service: a delivered
 * carrier makes the tracked original it names be asked for by ID (one request), and only the
 * service's answer reaches the cache, exactly once; a carrier names originals by route, messenger
 * contract and nonce; an unwatched pending carrier is remembered and asked for by ID.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { CHAIN_REGISTRY } from '../../src/shared/chains';
import { rawRecord, type TeleporterMessage } from '../../src/shared/messages';
import type { Transition } from '../../src/shared/contract';
import { RequestBudget } from '../../src/core/data-api/budget';
import { DataApiClient } from '../../src/core/data-api/client';
import { PoolRegistry } from '../../src/core/data-api/pools';
import { createLogger } from '../../src/core/log/logger';
import { ReceiptCarriers } from '../../src/core/poller/receipt-carriers';
import { recheckDue } from '../../src/core/poller/recheck-cadence';
import { recheckById } from '../../src/core/poller/recheck-by-id';
import { CycleBudget, scan } from '../../src/core/poller/scan';
import type { TrackedMessage } from '../../src/core/store';
import { startLocalService, type SimulatedService } from '../../src/local-service';
import { engineRig, randomId, tempDir, type EngineRig } from './helpers';

/** Scan and by-ID options that feed what they read to the carriers, as the poller's receipt hook does. */
function withCarriers<T extends { network: 'mainnet' | 'fuji'; engine: EngineRig['engine']; onTransitions: (t: Transition[]) => void }>(
  o: T,
  carriers: ReceiptCarriers,
) {
  return {
    ...o,
    onMessages: (m: readonly TeleporterMessage[]) => carriers.learn(m, o.network),
  };
}

const pools = new PoolRegistry();
let svc: SimulatedService | null = null;
let rig: EngineRig | null = null;
let tmp: ReturnType<typeof tempDir> | null = null;
afterEach(async () => {
  rig?.close();
  tmp?.cleanup();
  await svc?.close();
  await pools.close();
  svc = rig = tmp = null;
});

const chain = (name: string) => CHAIN_REGISTRY.chains.find((c) => c.network === 'mainnet' && c.name === name)!.blockchainId;

/**
 * A local service without traffic, an engine beside it, a client of it, and scan / by-ID options that
 * feed what they read to fresh carriers; `fired` records each transition as `label` names it.
 */
async function carrierRig(label: (t: Transition) => string = (t) => t.kind) {
  const clock = new ManualClock();
  const s = (svc = await startLocalService({ clock, rate: 0, preload: 0, rateLimitPerMinute: { keyed: 1e6, anonymous: 1e6 } }));
  tmp = tempDir();
  const r = (rig = engineRig(tmp.dir, clock));
  const client = new DataApiClient({
    baseUrl: s.url,
    network: 'mainnet',
    pool: pools.get(s.url),
    budget: new RequestBudget(clock, 1e5),
    clock,
    logger: createLogger(),
    apiKey: () => null,
    apiKeyHeader: 'x-glacier-api-key',
    family: 'icm',
  });
  const carriers = new ReceiptCarriers(clock, r.store.messages);
  const fired: string[] = [];
  const o = withCarriers(
    { network: 'mainnet' as const, engine: r.engine, cycle: new CycleBudget(100), onTransitions: (t: Transition[]) => fired.push(...t.map(label)) },
    carriers,
  );
  return { clock, svc: s, rig: r, client, carriers, fired, o };
}

describe('ReceiptCarriers', () => {
  it('a delivered carrier has the original it names asked for by ID: one transition, the cached record as the service has it', async () => {
    const { clock, svc, rig, client, carriers, fired, o } = await carrierRig((t) => `${t.messageId === original ? 'original' : 'other'}:${t.kind}`);
    const [watched, stranger] = [svc.simulator.addresses[0]!, svc.simulator.addresses[7]!];
    rig.watch(watched);
    const [a, b] = [chain('C-Chain'), chain('Beam')];
    const original = svc.simulator.send({ source: a, destination: b, from: watched, outcome: 'normal', deliveryDelayMs: 3_000 });
    const head = () =>
      scan((token) => client.listMessages({ pageSize: 100, ...(token ? { pageToken: token } : {}) }), {
        ...o,
        messages: rig.store.messages,
        pageSize: 100,
        maxPages: 5,
        next: () => true,
      });

    await clock.advance(4_000);
    carriers.refresh();
    await head();
    expect(fired).toEqual(['original:new', 'original:left_pending']);

    // Nobody watches the message back; it carries the original's receipt.
    const carrier = svc.simulator.send({ source: b, destination: a, from: stranger, to: stranger, outcome: 'normal', deliveryDelayMs: 8_000 });
    expect((svc.store.get(carrier)!.receipts as { receivedMessageNonce: string }[]).map((r) => r.receivedMessageNonce)).toEqual([
      svc.store.get(original)!.messageNonce,
    ]);
    carriers.refresh();
    await head();
    expect(carriers.toAsk('mainnet')).toEqual([carrier]);

    // Still pending on the service: asking for it settles nothing.
    await clock.advance(4_000);
    await recheckById(client, carriers.toAsk('mainnet'), o);
    expect(fired).toEqual(['original:new', 'original:left_pending']);
    expect(rig.store.messages.state(original)!.receiptDelivered).toBe(false);

    await clock.advance(5_000);
    expect(svc.store.get(original)!.receiptDelivered).toBe(true);
    const before = svc.requestCount();
    await recheckById(client, carriers.toAsk('mainnet'), o);
    expect(svc.requestCount() - before).toBe(1); // the carrier only
    // A carrier is a hint: nothing about the original is written until the service answers for it.
    expect(fired).toEqual(['original:new', 'original:left_pending']);
    expect(rig.store.messages.state(original)!.receiptDelivered).toBe(false);
    const ask = carriers.toAsk('mainnet');
    expect(ask).toEqual([original]);
    await recheckById(client, ask, o);
    expect(svc.requestCount() - before).toBe(2);
    expect(fired).toEqual(['original:new', 'original:left_pending', 'original:receipt_delivered']);
    // The cache holds exactly what the service answers for the original now.
    const fresh = await client.getMessage(original);
    expect(fresh.ok && rawRecord(rig.store.messages.get(original)!.message)).toEqual(fresh.ok && rawRecord(fresh.value));
    expect(carriers.toAsk('mainnet')).toEqual([]);

    // The original's own record and the carrier again change nothing.
    await recheckById(client, [original, carrier], o);
    carriers.refresh();
    await head();
    expect(fired).toEqual(['original:new', 'original:left_pending', 'original:receipt_delivered']);
    expect(
      rig.store.transitions
        .list({ messageId: original })
        .map((t) => t.kind)
        .sort(),
    ).toEqual(['left_pending', 'new', 'receipt_delivered']);
  });

  it('a carrier naming a message nobody tracks is forgotten; one on another route settles nothing', async () => {
    const { clock, svc, rig, client, carriers, fired, o } = await carrierRig();
    const watched = svc.simulator.addresses[0]!;
    rig.watch(watched);
    const [a, b, c] = [chain('C-Chain'), chain('Beam'), chain('Dexalot')];
    const mine = svc.simulator.send({ source: a, destination: b, from: watched, outcome: 'normal', deliveryDelayMs: 2_000 });
    // Someone else's messages (an address nobody watches), delivered in 2 s.
    const other = svc.simulator.addresses[9]!;
    const sendOther = (source: string, destination: string) =>
      svc.simulator.send({ source, destination, from: other, to: other, outcome: 'normal', deliveryDelayMs: 2_000 });
    const theirs = sendOther(a, c);
    await clock.advance(3_000);
    await recheckById(client, [mine, theirs], o);
    // Back from Dexalot: names `theirs` (same source chain, other destination), never `mine`.
    const back = sendOther(c, a);
    carriers.refresh();
    await recheckById(client, [back], o);
    expect(carriers.toAsk('mainnet')).toEqual([]);
    await clock.advance(3_000);
    await recheckById(client, [back], o);
    expect(fired).toEqual(['new', 'left_pending']);
    expect(rig.store.messages.state(mine)!.receiptDelivered).toBe(false);
  });
});

describe('a carrier proves a delivery', () => {
  /** A watched original, delivered on the service but held as pending, and a pending message back that names it. */
  async function originalAndCarrier() {
    const r = await carrierRig();
    const { clock, svc, rig, client, carriers, o } = r;
    const [watched, stranger] = [svc.simulator.addresses[0]!, svc.simulator.addresses[7]!];
    rig.watch(watched);
    const [a, b] = [chain('C-Chain'), chain('Gunzilla')];
    const original = svc.simulator.send({ source: a, destination: b, from: watched, outcome: 'normal', deliveryDelayMs: 2_000 });
    carriers.refresh();
    await recheckById(client, [original], o);
    expect(carriers.toAsk('mainnet')).toEqual([]);
    await clock.advance(3_000);
    const carrier = svc.simulator.send({ source: b, destination: a, from: stranger, to: stranger, outcome: 'normal', deliveryDelayMs: 60_000 });
    carriers.refresh();
    await recheckById(client, [carrier], o);
    return { ...r, original, carrier };
  }

  it('an original still held as pending is asked for by ID once a message back names it, and fires left_pending once', async () => {
    const { client, carriers, fired, o, original, carrier } = await originalAndCarrier();
    expect(fired).toEqual(['new']);
    expect(carriers.toAsk('mainnet').sort()).toEqual([original, carrier].sort());
    await recheckById(client, [original], o);
    expect(fired).toEqual(['new', 'left_pending']);
    // Held as delivered now: asked no more.
    await recheckById(client, [carrier], o);
    expect(carriers.toAsk('mainnet')).toEqual([carrier]);
    expect(fired).toEqual(['new', 'left_pending']);
  });

  it('where the firehose reads again below the cursor, an original that read covers is not asked for by ID; an older one is', async () => {
    const { clock, carriers, original, carrier } = await originalAndCarrier();
    const sentAt = Math.floor(clock.now() / 1000);
    // The next full read covers both (sorted above its floor): nothing to ask for.
    expect(carriers.toAsk('mainnet', sentAt - 600)).toEqual([]);
    // A floor above them (they are older than what the full read covers): both are asked for, as without one.
    expect(carriers.toAsk('mainnet', sentAt + 1).sort()).toEqual([original, carrier].sort());
    expect(carriers.toAsk('mainnet', null).sort()).toEqual([original, carrier].sort());
  });
});

describe('recheckDue', () => {
  const t = (status: string, receiptDelivered: boolean) => ({ status, receiptDelivered }) as TrackedMessage;
  it('where carriers are seen, an open receipt waits for the fallback cadence; a pending message keeps the live cadence (its delivery needs no traffic back)', () => {
    const interval = 10_000;
    expect(recheckDue(t('delivered', false), 60_000, 20_000, interval, 30 * 60_000, 'unseen')).toBe(true);
    expect(recheckDue(t('delivered', false), 60_000, 20_000, interval, 30 * 60_000, 'seen')).toBe(false);
    expect(recheckDue(t('delivered', false), 60_000, 5 * 60_000, interval, 30 * 60_000, 'seen')).toBe(true);
    expect(recheckDue(t('pending', false), 60_000, 20_000, interval, 30 * 60_000, 'seen')).toBe(true);
    // A pending message 90 s old (a quiet one-way route: no carrier will come): every cycle, carriers or not;
    // 150 s old (past FRESH_AGE_MS, 2 min): a quarter of its age, at least 3 intervals (here 37.5 s), carriers or not.
    expect(recheckDue(t('pending', false), 90_000, interval, interval, 30 * 60_000, 'seen')).toBe(true);
    expect(recheckDue(t('pending', false), 150_000, interval, interval, 30 * 60_000, 'seen')).toBe(false);
    expect(recheckDue(t('pending', false), 150_000, 4 * interval, interval, 30 * 60_000, 'seen')).toBe(true);
    // An old pending message within the stuck threshold: a quarter of its age (10 min old: 2.5 min), carriers or not.
    for (const carriers of ['unseen', 'seen', 'covered'] as const) {
      expect(recheckDue(t('pending', false), 10 * 60_000, 150_000, interval, 30 * 60_000, carriers)).toBe(true);
      expect(recheckDue(t('pending', false), 10 * 60_000, 50_000, interval, 30 * 60_000, carriers)).toBe(false);
    }
    // An old one awaiting its receipt: a quarter of its age.
    expect(recheckDue(t('delivered', false), 4 * 3600_000, 30 * 60_000, interval, 30 * 60_000, 'seen')).toBe(false);
    expect(recheckDue(t('delivered', false), 4 * 3600_000, 60 * 60_000, interval, 30 * 60_000, 'seen')).toBe(true);
    // Every carrier read since its last read (carrier-coverage.ts): never by the fallback; a pending one as ever.
    expect(recheckDue(t('delivered', false), 4 * 3600_000, 60 * 60_000, interval, 30 * 60_000, 'covered')).toBe(false);
    expect(recheckDue(t('delivered', false), 60_000, 5 * 60_000, interval, 30 * 60_000, 'covered')).toBe(false);
    expect(recheckDue(t('pending', false), 90_000, interval, interval, 30 * 60_000, 'covered')).toBe(true);
  });
});

describe('carriers name originals by messenger contract too', () => {
  const V2 = '0x' + 'ab'.repeat(20);
  /** A copy of a service record under a new ID, with `patch` applied. */
  const copy = (rec: Record<string, unknown>, patch: Record<string, unknown>) => ({ ...structuredClone(rec), messageId: randomId(), ...patch });
  const contractKey = (rec: Record<string, unknown>) => ('icmContractAddress' in rec ? 'icmContractAddress' : 'teleporterContractAddress');

  it('a carrier from another messenger version with the same nonce marks only its own original, and nothing is written the API did not say', async () => {
    const { clock, svc, rig, client, carriers, fired, o } = await carrierRig(
      (t) => `${t.messageId === v1 ? 'v1' : t.messageId === v2 ? 'v2' : 'other'}:${t.kind}`,
    );
    const [watched, stranger] = [svc.simulator.addresses[0]!, svc.simulator.addresses[7]!];
    rig.watch(watched);
    const [a, b] = [chain('C-Chain'), chain('Beam')];
    const v1 = svc.simulator.send({ source: a, destination: b, from: watched, outcome: 'normal', deliveryDelayMs: 2_000 });
    await clock.advance(3_000);
    const rec1 = svc.store.get(v1)!;
    expect(rec1.status).toBe('delivered');
    const key = contractKey(rec1);
    expect(String(rec1[key]).toLowerCase()).not.toBe(V2);
    // The same route and nonce through messenger v2, sent a little earlier (the cache lists it first).
    const src1 = rec1.sourceTransaction as { timestamp: number };
    const rec2 = copy(rec1, { [key]: V2, sourceTransaction: { ...src1, timestamp: src1.timestamp - 5 } });
    const v2 = rec2.messageId;
    svc.store.upsert(rec2);
    await recheckById(client, [v1, v2], o);
    expect(fired.sort()).toEqual(['v1:left_pending', 'v1:new', 'v2:left_pending', 'v2:new']);
    fired.length = 0;

    // Messenger v2 brings v2's receipt back (the service shows it delivered); v1's is still out.
    const carrier2 = copy(rec1, {
      [key]: V2,
      sourceBlockchainId: b,
      destinationBlockchainId: a,
      from: stranger,
      to: stranger,
      receipts: [{ receivedMessageNonce: rec1.messageNonce, relayerRewardAddress: stranger }],
    });
    svc.store.upsertMany([carrier2, { ...rec2, receiptDelivered: true }]);
    carriers.refresh();
    await recheckById(client, [carrier2.messageId], o);
    expect(carriers.toAsk('mainnet')).toEqual([v2]);
    await recheckById(client, [v2], o);
    expect(fired).toEqual(['v2:receipt_delivered']);
    expect(rig.store.messages.state(v1)!.receiptDelivered).toBe(false);

    // Messenger v1's carrier names v1 while the service does not show its receipt yet: asked, nothing written.
    const carrier1 = copy(rec1, {
      sourceBlockchainId: b,
      destinationBlockchainId: a,
      from: stranger,
      to: stranger,
      receipts: [{ receivedMessageNonce: rec1.messageNonce, relayerRewardAddress: stranger }],
    });
    svc.store.upsert(carrier1);
    carriers.refresh();
    await recheckById(client, [carrier1.messageId], o);
    const ask = carriers.toAsk('mainnet');
    expect(ask).toEqual([v1]);
    await recheckById(client, ask, o);
    expect(fired).toEqual(['v2:receipt_delivered']);
    expect(rig.store.messages.state(v1)!.receiptDelivered).toBe(false);
    const answer = await client.getMessage(v1);
    expect(answer.ok && rawRecord(rig.store.messages.get(v1)!.message)).toEqual(answer.ok && rawRecord(answer.value));
  });
});

describe('a pending carrier nobody watches is asked for on a cadence by its age', () => {
  it('every cycle while fresh, then a quarter of its age (5 min … 1 h), not every cycle; its late delivery still brings the receipt', async () => {
    const { clock, svc, rig, client, carriers, fired, o } = await carrierRig();
    const [watched, stranger] = [svc.simulator.addresses[0]!, svc.simulator.addresses[7]!];
    rig.watch(watched);
    const [a, b] = [chain('C-Chain'), chain('Beam')];
    const original = svc.simulator.send({ source: a, destination: b, from: watched, outcome: 'normal', deliveryDelayMs: 2_000 });
    await clock.advance(3_000);
    await recheckById(client, [original], o);
    expect(fired).toEqual(['new', 'left_pending']);

    // A message back nobody watches carries the original's receipt, and stays pending for 50 min.
    const deliveryMs = 50 * 60_000;
    const carrier = svc.simulator.send({ source: b, destination: a, from: stranger, to: stranger, outcome: 'normal', deliveryDelayMs: deliveryMs });
    const sentAt = clock.now();
    carriers.refresh();
    await recheckById(client, [carrier], o);

    // The poller's cycles at the default 30 s interval for an hour: what the carriers ask for by ID after each.
    const interval = 30_000;
    const carrierAsks: number[] = [];
    let requests = 0;
    let receiptAt: number | null = null;
    for (let cycle = 0; cycle < 120; cycle++) {
      await clock.advance(interval);
      carriers.refresh();
      const ask = carriers.toAsk('mainnet');
      if (ask.includes(carrier)) carrierAsks.push(clock.now() - sentAt);
      const before = svc.requestCount();
      await recheckById(client, ask, { ...o, cycle: new CycleBudget(100) });
      requests += svc.requestCount() - before;
      if (receiptAt === null && fired.includes('receipt_delivered')) receiptAt = clock.now() - sentAt;
    }

    // Every cycle for its first 2 min, then each ask once a quarter of its age (5 min … 1 h) has passed since the last read.
    const cadence = (age: number) => Math.min(3600_000, Math.max(5 * 60_000, age / 4));
    const fresh = carrierAsks.filter((age) => age < 2 * 60_000);
    expect(fresh).toEqual([30_000, 60_000, 90_000]);
    for (let i = fresh.length; i < carrierAsks.length; i++) {
      const [prev, age] = [carrierAsks[i - 1]!, carrierAsks[i]!];
      expect(age - prev).toBeGreaterThanOrEqual(cadence(age));
      // Never starved: asked in the first cycle it is due (the cycle before, it was not).
      expect(age - interval - prev).toBeLessThan(cadence(age - interval));
    }
    // Asked every cycle until delivered, it would have cost 100 requests.
    expect(carrierAsks.length).toBeLessThanOrEqual(15);

    // Its delivery was seen at its next ask, and the original it names asked for once: the receipt fired once.
    const seenDelivered = carrierAsks.find((age) => age >= deliveryMs)!;
    expect(seenDelivered - deliveryMs).toBeLessThan(deliveryMs / 4 + interval);
    expect(receiptAt).toBe(seenDelivered + interval);
    expect(fired).toEqual(['new', 'left_pending', 'receipt_delivered']);
    expect(carrierAsks.at(-1)).toBe(seenDelivered);
    expect(requests).toBe(carrierAsks.length + 1);
  });
});
