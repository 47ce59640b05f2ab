/**
 * What the chains did, read from their logs at the end of `bench:own-node`: every message of a watched
 * address that was sent, delivered and had its receipt come back, as the transitions the core must
 * report (`new`, `left_pending`, `receipt_delivered`, keyed `<messageId>:<kind>` as the ground truth
 * is). Each is timed by when the bench saw its transaction mined (the send, or the delivery that
 * carried it: a receipt rides on a delivery the other way), else by its block's time.
 */
import { createPublicClient, decodeEventLog, http, type Hex, type Log } from 'viem';
import { MESSENGER_EVENTS } from '../src/chain-index/messenger-events';
import type { ExpectedTransition } from '../test/support/ground-truth';
import type { TestChain } from '../test/own-node/chains';

// Small enough that a busy range's logs stay under the client's 10 MB response limit (2,000 blocks at 20 messages/s exceeded it).
const CHUNK = 200n;
const bare = (id: string) => id.toLowerCase().replace(/^0x/, '');

interface Seen {
  name: string;
  id: string;
  tx: Hex;
  blockMs: number;
  parties: string[];
}

async function messengerLogs(c: TestChain): Promise<Seen[]> {
  const client = createPublicClient({ transport: http(c.node.url), cacheTime: 0 });
  const head = await client.getBlockNumber();
  const blockMs = new Map<bigint, number>();
  const out: Seen[] = [];
  const timeOf = async (n: bigint) => {
    let t = blockMs.get(n);
    if (t === undefined) blockMs.set(n, (t = Number((await client.getBlock({ blockNumber: n })).timestamp) * 1000));
    return t;
  };
  for (let from = 0n; from <= head; from += CHUNK) {
    const to = from + CHUNK - 1n < head ? from + CHUNK - 1n : head;
    const logs: Log[] = await client.getLogs({ address: c.messenger, fromBlock: from, toBlock: to });
    for (const log of logs) {
      const ev = decodeEventLog({ abi: MESSENGER_EVENTS, data: log.data, topics: log.topics });
      const args = ev.args as { messageID?: Hex; message?: { originSenderAddress: string; destinationAddress: string } };
      if (!args.messageID) continue;
      out.push({
        name: ev.eventName,
        id: bare(args.messageID),
        tx: log.transactionHash!,
        blockMs: await timeOf(log.blockNumber!),
        parties: args.message ? [args.message.originSenderAddress.toLowerCase(), args.message.destinationAddress.toLowerCase()] : [],
      });
    }
  }
  return out;
}

/**
 * The expected transitions of `watched` addresses' messages. `sentAt` and `deliveredAt`: message ID
 * (hex without 0x) → when the bench saw its send or delivery mined (wall ms).
 */
export async function chainTruth(
  chains: readonly TestChain[],
  watched: readonly string[],
  sentAt: ReadonlyMap<string, number>,
  deliveredAt: ReadonlyMap<string, number>,
): Promise<Map<string, ExpectedTransition>> {
  const mine = new Set(watched.map((a) => a.toLowerCase()));
  const events = (await Promise.all(chains.map(messengerLogs))).flat();
  const ours = new Set(events.filter((e) => e.parties.some((p) => mine.has(p))).map((e) => e.id));
  // The message each delivery transaction delivered: a receipt in that transaction came back with it.
  const deliveredIn = new Map(events.filter((e) => e.name === 'ReceiveCrossChainMessage').map((e) => [e.tx, e.id]));
  const expected = new Map<string, ExpectedTransition>();
  const expect = (key: string, at: number) => expected.set(key, { happenedAt: at, visibleAt: at });
  for (const e of events) {
    if (!ours.has(e.id)) continue;
    if (e.name === 'SendCrossChainMessage') expect(`${e.id}:new`, sentAt.get(e.id) ?? e.blockMs);
    else if (e.name === 'ReceiveCrossChainMessage') expect(`${e.id}:left_pending`, deliveredAt.get(e.id) ?? e.blockMs);
    else if (e.name === 'ReceiptReceived') {
      const carrier = deliveredIn.get(e.tx);
      expect(`${e.id}:receipt_delivered`, (carrier === undefined ? undefined : deliveredAt.get(carrier)) ?? e.blockMs);
    }
  }
  return expected;
}
