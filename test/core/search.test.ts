import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { performance } from 'node:perf_hooks';
import { messageTimestamp, parseMessage, type TeleporterMessage } from '../../src/shared/messages';
import { SEARCH_COUNT_CAP, searchTextOf } from '../../src/core/store/message-store';
import { randomBytes } from 'node:crypto';
import { BEAM, C_CHAIN, engineRig, randomAddress, tempDir, type EngineRig } from './helpers';

/** An API record built cheaply (no checksum work per record), so 100,000 of them load in seconds. */
function quickRecord(i: number, status: string, from: string, to: string): Record<string, unknown> {
  const ts = 1_767_000_000 + i;
  const rec: Record<string, unknown> = {
    messageId: randomBytes(32).toString('hex'),
    teleporterContractAddress: '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf',
    sourceBlockchainId: C_CHAIN,
    destinationBlockchainId: BEAM,
    sourceEvmChainId: '43114',
    destinationEvmChainId: '4337',
    messageNonce: String(i),
    from,
    to,
    messageExecuted: status !== 'pending',
    receipts: [],
    receiptDelivered: i % 3 === 0,
    rewardDetails: { address: from, name: 'USD Coin', symbol: 'USDC', decimals: 6, logoUri: '', ercType: 'ERC-20', value: '1000' },
    status,
  };
  if (status !== 'delivered_source_not_indexed') rec.sourceTransaction = { txHash: '0x' + randomBytes(32).toString('hex'), timestamp: ts, gasSpent: '1' };
  if (status !== 'pending') rec.destinationTransaction = { txHash: '0x' + randomBytes(32).toString('hex'), timestamp: ts + 10, gasSpent: '1', rewardRedeemer: to, delivererAddress: to };
  return rec;
}

const N = 100_000;

describe('searchCache on 100,000 cached messages', () => {
  const tmp = tempDir();
  let rig: EngineRig;
  const people = Array.from({ length: 500 }, () => randomAddress());
  let probe: TeleporterMessage;

  beforeAll(() => {
    rig = engineRig(tmp.dir);
    const statuses = ['pending', 'delivered', 'delivered', 'delivered', 'delivered_source_not_indexed'];
    rig.store.messages.transaction(() => {
      for (let i = 0; i < N; i++) {
        const raw = quickRecord(i, statuses[i % statuses.length]!, people[i % 500]!, people[(i * 7) % 500]!);
        const m = parseMessage(raw) as TeleporterMessage;
        if (i === 54_321) probe = m;
        rig.store.messages.insert({
          messageId: m.messageId,
          network: 'mainnet',
          status: m.status === 'unknown' ? m.reportedStatus : m.status,
          receiptDelivered: raw.receiptDelivered === true,
          from: raw.from as string,
          to: raw.to as string,
          sourceChain: raw.sourceBlockchainId as string,
          destinationChain: raw.destinationBlockchainId as string,
          sourceTs: 1_767_000_000 + i,
          destinationTs: 1_767_000_010 + i,
          raw: JSON.stringify(raw),
          searchText: searchTextOf(m, raw),
          seenAt: 1,
          tracked: false,
          pendingSince: null,
          stuckFired: false,
        });
      }
    });
  }, 120_000);
  afterAll(() => {
    rig.close();
    tmp.cleanup();
  });

  it('finds by any part of an ID, address, chain name or hash, newest first', () => {
    const id = probe.messageId;
    const byId = rig.store.messages.search({ text: id.slice(10, 22) });
    expect(byId.items[0]?.message.messageId).toBe(id);
    expect(byId.total).toBe(1);
    const who = people[3]!;
    const byAddr = rig.store.messages.search({ text: who.slice(2, 14).toUpperCase(), limit: 20 });
    expect(byAddr.total).toBeGreaterThan(100);
    const ts = byAddr.items.map((c) => messageTimestamp(c.message) ?? 0);
    expect([...ts].sort((a, b) => b - a)).toEqual(ts);
    // Exact counts up to the cap, then the cap with a flag.
    const pendingBeam = rig.store.messages.search({ text: 'beam', status: 'pending' });
    expect(pendingBeam.total).toBe(SEARCH_COUNT_CAP);
    expect(pendingBeam.totalCapped).toBe(true);
    expect(rig.store.messages.search({ text: who.slice(2, 14), status: 'pending' }).totalCapped).toBeUndefined();
    expect(rig.store.messages.search({ text: 'zz-no-such' }).total).toBe(0);
  });

  it('answers every keystroke of typical searches in well under 10 ms at p95', () => {
    const id = probe.messageId;
    const who = people[42]!;
    const typed = (s: string) => Array.from({ length: s.length }, (_, i) => s.slice(0, i + 1));
    const queries = [...typed(id.slice(0, 16)), ...typed(who.slice(0, 16)), ...typed('dispatch'), ...typed('beam'), ...typed('0xabc')];
    const times: number[] = [];
    for (const text of queries) {
      const t0 = performance.now();
      rig.store.messages.search({ text, limit: 50 });
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const p95 = times[Math.floor(times.length * 0.95)]!;
    console.log(`searchCache over ${N}: p50 ${times[Math.floor(times.length / 2)]!.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms, max ${times[times.length - 1]!.toFixed(2)} ms (${queries.length} keystrokes)`);
    expect(p95).toBeLessThan(10);
  });
});
