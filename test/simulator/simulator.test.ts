/** The traffic simulator: determinism, lifecycle on an injected clock, and realistic records. */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { CHAIN_REGISTRY, chainByBlockchainId } from '../../src/shared/chains';
import { parseMessage } from '../../src/shared/messages';
import { parseEvmAddress } from '../../src/shared/validators';
import { get, serve, walk } from '../local-service/helpers';
import { waitFor } from '../support/wait-for';

type Rec = Record<string, unknown>;
const START = Date.UTC(2026, 0, 1);

async function everything(url: string): Promise<string> {
  const pages: string[] = [];
  let token: string | undefined;
  do {
    const r = await get(`${url}/v1/teleporter/messages?pageSize=100${token ? `&pageToken=${token}` : ''}`);
    pages.push(r.text.replace(/"nextPageToken":"[^"]*"/, ''));
    token = (r.json as { nextPageToken?: string }).nextPageToken;
  } while (token);
  return pages.join('\n');
}

describe('determinism', () => {
  async function run(seed: number) {
    const clock = new ManualClock(START);
    const s = await serve({ clock, seed, rate: 3, preload: 300 });
    await clock.advance(20_000);
    s.simulator.send({ network: 'fuji' });
    s.simulator.step(45_000);
    await clock.advance(30_000);
    return { text: await everything(s.url), addresses: s.simulator.addresses, count: s.store.count() };
  }

  it('gives byte-identical records for the same seed and the same clock steps', async () => {
    const a = await run(42);
    const b = await run(42);
    expect(a.count).toBeGreaterThan(300);
    expect(b.text).toBe(a.text);
    expect(b.addresses).toEqual(a.addresses);
  });

  it('gives different traffic and addresses for another seed', async () => {
    const a = await run(42);
    const c = await run(43);
    expect(c.text).not.toBe(a.text);
    expect(c.addresses).not.toEqual(a.addresses);
  });
});

describe('lifecycle on a ManualClock', () => {
  it('moves only when the clock moves', async () => {
    const clock = new ManualClock(START);
    const s = await serve({ clock, rate: 5 });
    // The same simulator on real time is the yardstick: once it has written, real time has passed.
    const live = await serve({ rate: 5 });
    await waitFor(() => live.store.count() > 0, 5_000, 'the real-time simulator to write');
    expect(s.store.count()).toBe(0);
    await clock.advance(10_000);
    const n = s.store.count();
    expect(n).toBeGreaterThan(20);
    expect(n).toBeLessThan(90);
    expect(s.simulator.now()).toBe(clock.now());
  });

  it('a message goes pending -> delivered (destination transaction) -> receipt delivered by an explicit receipt message', async () => {
    const clock = new ManualClock(START);
    const s = await serve({ clock, seed: 5 });
    const id = s.simulator.send({ network: 'mainnet', deliveryDelayMs: 8_000, receiptDelayMs: 30_000 });
    const byId = () => s.store.get(id) as Rec;
    expect(byId()).toMatchObject({ status: 'pending', messageExecuted: false, receipts: [], receiptDelivered: false });
    expect(byId().sourceTransaction).toMatchObject({ timestamp: START / 1000 });
    expect(byId()).not.toHaveProperty('destinationTransaction');
    await clock.advance(7_000);
    expect(byId().status).toBe('pending');
    await clock.advance(2_000);
    const delivered = byId();
    expect(delivered).toMatchObject({ status: 'delivered', receipts: [], receiptDelivered: false });
    expect(delivered.destinationTransaction).toMatchObject({ timestamp: START / 1000 + 8 });
    const dest = delivered.destinationTransaction as Rec;
    expect(s.simulator.relayers).toContain(dest.rewardRedeemer);
    expect(dest.delivererAddress).toBe(dest.rewardRedeemer);
    // The relayer sent the receipt back (sendSpecifiedReceipts): a message on the reverse route, no payload, to the zero address.
    const carrier = (await walk(`${s.url}/v1/teleporter/messages`, { pageSize: 100 })).messages.find((m) => m.messageId !== id) as Rec;
    expect(carrier).toMatchObject({
      status: 'pending',
      sourceBlockchainId: delivered.destinationBlockchainId,
      destinationBlockchainId: delivered.sourceBlockchainId,
      from: dest.rewardRedeemer,
      to: '0x0000000000000000000000000000000000000000',
      data: '0x',
      receipts: [{ receivedMessageNonce: delivered.messageNonce, relayerRewardAddress: dest.rewardRedeemer }],
    });
    await clock.advance(28_000);
    expect(byId().receiptDelivered).toBe(false);
    await clock.advance(2_000);
    // The carrier's delivery and the original's receipt are one store change.
    expect(byId()).toMatchObject({ status: 'delivered', receiptDelivered: true, receipts: [] });
    // The carrier now waits for its own receipt like any delivered message (receipt-only: traffic back acknowledges it).
    expect(s.store.get(carrier.messageId as string)).toMatchObject({ status: 'delivered', receiptDelivered: false });
    expect(s.simulator.pendingEvents).toBe(0);
  });

  it('a receipt rides back on the next message of the reverse route, at most five per message', async () => {
    const clock = new ManualClock(START);
    const s = await serve({ clock, seed: 6, rate: 0 });
    const [a, b] = ['C-Chain', 'Beam'].map((n) => CHAIN_REGISTRY.chains.find((c) => c.network === 'mainnet' && c.name === n)!.blockchainId);
    const originals = Array.from({ length: 7 }, () => s.simulator.send({ source: a, destination: b, outcome: 'normal', deliveryDelayMs: 5_000 }));
    await clock.advance(6_000);
    for (const id of originals) expect(s.store.get(id)).toMatchObject({ status: 'delivered', receiptDelivered: false });
    const back = s.simulator.send({ source: b, destination: a, outcome: 'normal', deliveryDelayMs: 10_000 });
    const nonces = originals.map((id) => s.store.get(id)!.messageNonce);
    const carried = (s.store.get(back)!.receipts as { receivedMessageNonce: string }[]).map((r) => r.receivedMessageNonce);
    expect(carried).toEqual(nonces.slice(0, 5));
    const other = s.simulator.send({ source: a, destination: b, outcome: 'normal', deliveryDelayMs: 60_000 });
    expect(s.store.get(other)!.receipts).toEqual([]); // the forward route carries nothing back
    await clock.advance(9_000);
    expect(originals.filter((id) => s.store.get(id)!.receiptDelivered)).toEqual([]);
    await clock.advance(1_000);
    expect(originals.map((id) => s.store.get(id)!.receiptDelivered)).toEqual([true, true, true, true, true, false, false]);
    // The two left: the next message back takes them.
    const next = s.simulator.send({ source: b, destination: a, outcome: 'normal' });
    expect((s.store.get(next)!.receipts as { receivedMessageNonce: string }[]).map((r) => r.receivedMessageNonce)).toEqual(nonces.slice(5));
  });

  it('receipts held by an undelivered carrier or without traffic back are re-sent by a relayer', async () => {
    const clock = new ManualClock(START);
    const s = await serve({ clock, seed: 7, rate: 0 });
    const [a, b] = ['C-Chain', 'Dexalot'].map((n) => CHAIN_REGISTRY.chains.find((c) => c.network === 'mainnet' && c.name === n)!.blockchainId);
    const lost = s.simulator.send({ source: a, destination: b, outcome: 'normal', deliveryDelayMs: 2_000 });
    await clock.advance(3_000);
    const undelivered = s.simulator.send({ source: b, destination: a, outcome: 'undelivered' });
    expect(s.store.get(undelivered)!.receipts).toHaveLength(1);
    const lonely = s.simulator.send({ source: a, destination: b, outcome: 'normal', deliveryDelayMs: 2_000 });
    await clock.advance(3_000);
    // Within five minutes (3 min wait, 30 s checks, then the re-send's delivery) both have their receipt.
    for (let i = 0; i < 60 && ![lost, lonely].every((id) => s.store.get(id)!.receiptDelivered); i++) await clock.advance(5_000);
    expect([lost, lonely].map((id) => s.store.get(id)!.receiptDelivered)).toEqual([true, true]);
    const resends = (await walk(`${s.url}/v1/teleporter/messages`, { pageSize: 100 })).messages.filter(
      (m) => m.to === '0x0000000000000000000000000000000000000000',
    );
    expect(resends.length).toBeGreaterThan(0);
    expect(resends.every((m) => m.sourceBlockchainId === b && m.destinationBlockchainId === a && m.data === '0x')).toBe(true);
    expect(s.store.get(undelivered)!.status).toBe('pending');
  });

  it('a message whose source is not indexed appears only when delivered, without a source transaction', async () => {
    const clock = new ManualClock(START);
    const s = await serve({ clock });
    const id = s.simulator.send({ outcome: 'sourceNotIndexed', deliveryDelayMs: 5_000 });
    expect(s.store.get(id)).toBeUndefined();
    await clock.advance(6_000);
    const rec = s.store.get(id)!;
    expect(rec.status).toBe('delivered_source_not_indexed');
    expect(rec).not.toHaveProperty('sourceTransaction');
    expect(parseMessage(rec)?.status).toBe('delivered_source_not_indexed');
  });

  it("send() stamps the clock's time even when no traffic moved the simulator", async () => {
    const clock = new ManualClock(START);
    const s = await serve({ clock, rate: 0 });
    await clock.advance(90_000);
    const id = s.simulator.send();
    expect((s.store.get(id)?.sourceTransaction as { timestamp: number }).timestamp).toBe(START / 1000 + 90);
  });

  it('an undelivered message stays pending', async () => {
    const clock = new ManualClock(START);
    const s = await serve({ clock });
    const id = s.simulator.send({ outcome: 'undelivered' });
    await clock.advance(3 * 3600_000);
    expect(s.store.get(id)?.status).toBe('pending');
  });

  it('speed divides delivery delays', async () => {
    const latency = async (speed: number) => {
      const s = await serve({ clock: new ManualClock(START), preload: 400, speed });
      const ms = (await walk(`${s.url}/v1/teleporter/messages`, { pageSize: 100 })).messages
        .filter((m) => m.status === 'delivered')
        .map((m) => (m.destinationTransaction as { timestamp: number }).timestamp - (m.sourceTransaction as { timestamp: number }).timestamp)
        .sort((a, b) => a - b);
      return ms[Math.floor(ms.length / 2)]!;
    };
    const normal = await latency(1);
    const fast = await latency(10);
    expect(normal).toBeGreaterThanOrEqual(5);
    expect(fast).toBeLessThanOrEqual(Math.ceil(normal / 5));
  });

  it('runs on real time with the system clock', async () => {
    const s = await serve({ rate: 40 });
    await waitFor(() => s.store.count() > 0, 5_000, 'the first simulated message');
    const newest = ((await get(`${s.url}/v1/teleporter/messages?pageSize=1`)).json as { messages: Rec[] }).messages[0]!;
    expect(Math.abs((newest.sourceTransaction as { timestamp: number }).timestamp - Date.now() / 1000)).toBeLessThan(10);
  });
});

describe('a rate that changes', () => {
  it('sends at the new rate from then on (a busy hour, then calm), as the list shows', async () => {
    const clock = new ManualClock(START);
    // Without the relayers' receipt re-sends (messages too): every message counted is an arrival.
    const s = await serve({ clock, rate: 20, receiptResends: false });
    await clock.advance(60_000);
    const busy = s.simulator.messagesSent;
    // 1,200 expected in the minute (Poisson: sd about 35).
    expect(busy).toBeGreaterThan(1_000);
    expect(busy).toBeLessThan(1_400);
    s.simulator.setRate(0.2);
    await clock.advance(600_000);
    // 120 expected in the 10 calm minutes (sd about 11); at the old rate it would be 12,000.
    const calm = s.simulator.messagesSent - busy;
    expect(calm).toBeGreaterThan(60);
    expect(calm).toBeLessThan(180);
    expect(s.store.count()).toBe(s.simulator.messagesSent);
    expect(() => s.simulator.setRate(0)).toThrow(/above 0/);
  });
});

describe('realistic records', () => {
  it('every preloaded record is a valid variant with real-looking fields', async () => {
    const clock = new ManualClock(START);
    const s = await serve({ clock, preload: 2000, seed: 11 });
    const { messages } = await walk(`${s.url}/v1/teleporter/messages`, { pageSize: 100 });
    const users = new Set(s.simulator.addresses);
    const counts: Record<string, number> = {};
    const fromCounts = new Map<string, number>();
    let carriers = 0;
    for (const m of messages) {
      const parsed = parseMessage(m)!;
      expect(parsed.status, JSON.stringify(m)).not.toBe('unknown');
      counts[m.status as string] = (counts[m.status as string] ?? 0) + 1;
      expect(m.messageId).toMatch(/^[0-9a-f]{64}$/);
      expect(m.teleporterContractAddress).toBe('0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf');
      const src = chainByBlockchainId(m.sourceBlockchainId as string)!;
      const dst = chainByBlockchainId(m.destinationBlockchainId as string)!;
      expect(src.network).toBe(dst.network); // only chains of one network talk to each other
      expect(src.blockchainId).not.toBe(dst.blockchainId);
      expect(m.sourceEvmChainId).toBe(src.evmChainId);
      if (m.to === '0x0000000000000000000000000000000000000000') {
        // A relayer's sendSpecifiedReceipts: no payload, only receipts.
        expect(s.simulator.relayers).toContain(m.from);
        expect(m.data).toBe('0x');
        expect((m.receipts as unknown[]).length).toBeGreaterThan(0);
      } else {
        expect(users.has(m.from as string) && users.has(m.to as string)).toBe(true);
        expect(m.data).toMatch(/^0x([0-9a-f]{64})+$/);
      }
      const reward = m.rewardDetails as { symbol: string; decimals: number; value: string; price: { currencyCode: string; value: string }; ercType: string };
      expect(reward.ercType).toBe('ERC-20');
      expect(reward.price.currencyCode).toBe('usd');
      expect({ USDC: 6, USDt: 6, WAVAX: 18 }[reward.symbol]).toBe(reward.decimals);
      expect(reward.value).toMatch(/^\d+$/);
      for (const tx of [m.sourceTransaction, m.destinationTransaction] as ({ txHash: string; timestamp: number; gasSpent: string } | undefined)[]) {
        if (!tx) continue;
        expect(tx.txHash).toMatch(/^0x[0-9a-f]{64}$/);
        expect(Number.isInteger(tx.timestamp) && tx.timestamp <= START / 1000 && tx.timestamp > START / 1000 - 3600).toBe(true);
        expect(tx.gasSpent).toMatch(/^[1-9]\d*$/);
      }
      expect((m.receipts as unknown[]).length).toBeLessThanOrEqual(m.data === '0x' ? Infinity : 5);
      if ((m.receipts as unknown[]).length) carriers++;
      fromCounts.set(m.from as string, (fromCounts.get(m.from as string) ?? 0) + 1);
    }
    // All three variants, mostly delivered; a few still pending (recent or never delivered).
    expect(counts.delivered!).toBeGreaterThan(1700);
    expect(counts.delivered_source_not_indexed!).toBeGreaterThan(30);
    expect(counts.pending!).toBeGreaterThan(10);
    expect(messages.some((m) => m.status === 'delivered' && !m.receiptDelivered)).toBe(true); // receipts lag deliveries
    expect(carriers).toBeGreaterThan(messages.length / 4); // receipts ride back on ordinary traffic
    expect(messages.some((m) => m.messageExecuted === false && m.status === 'delivered')).toBe(true); // ~1% fail to execute
    // A few hot addresses carry much of the traffic.
    const hotShare = s.simulator.hotAddresses.reduce((n, a) => n + (fromCounts.get(a) ?? 0), 0) / messages.length;
    expect(hotShare).toBeGreaterThan(0.25);
    expect(new Set(messages.map((m) => m.rewardDetails && (m.rewardDetails as { symbol: string }).symbol))).toEqual(new Set(['USDC', 'USDt', 'WAVAX']));
  });

  it('/_local/info describes the simulation', async () => {
    const s = await serve({ clock: new ManualClock(START), preload: 50, seed: 9 });
    const info = (await get(`${s.url}/_local/info`)).json as {
      simulated: boolean;
      seed: number;
      addresses: string[];
      hotAddresses: string[];
      chains: unknown[];
      messageCount: number;
    };
    expect(info.simulated).toBe(true);
    expect(info.seed).toBe(9);
    expect(info.addresses).toHaveLength(200);
    expect(info.addresses).toEqual(s.simulator.addresses);
    for (const a of info.addresses) expect(parseEvmAddress(a)).toEqual({ ok: true, value: a });
    expect(info.hotAddresses).toEqual(info.addresses.slice(0, 5));
    expect(info.chains).toEqual(CHAIN_REGISTRY.chains);
    expect(info.messageCount).toBe(s.store.count());
  });
});
