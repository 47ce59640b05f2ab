/**
 * The simple alternative a user could write to follow the chains: every poll interval, each chain's
 * messenger logs from the block after the last one read up to the head, with no confirmation depth, no
 * reorg check and no transaction receipts (so no sender, cost or time: bare sightings, not records).
 * It runs in the bench's process against the same chains, so the service's detection can be compared
 * with the fastest a poll of that interval can see a message.
 */
import { createPublicClient, decodeEventLog, http } from 'viem';
import { MESSENGER_EVENTS } from '../src/chain-index/messenger-events';
import type { TestChain } from '../test/own-node/chains';

export interface NaiveReader {
  /** Message ID (hex without 0x) → when its send was first seen. */
  sentSeenAt: Map<string, number>;
  /** Message ID (hex without 0x) → when its delivery was first seen. */
  deliveredSeenAt: Map<string, number>;
  /** Stops polling; resolves with the JSON-RPC calls it made. */
  stop(): Promise<number>;
}

export function startNaiveReader(chains: readonly TestChain[], pollMs: number): NaiveReader {
  const sentSeenAt = new Map<string, number>();
  const deliveredSeenAt = new Map<string, number>();
  let calls = 0;
  let stopped = false;
  const follow = async (c: TestChain) => {
    const client = createPublicClient({ transport: http(c.node.url, { onFetchRequest: () => void calls++ }), cacheTime: 0 });
    let next = await client.getBlockNumber();
    while (!stopped) {
      const startedAt = Date.now();
      try {
        const head = await client.getBlockNumber();
        if (head >= next) {
          const logs = await client.getLogs({ address: c.messenger, fromBlock: next, toBlock: head });
          const now = Date.now();
          for (const log of logs) {
            const ev = decodeEventLog({ abi: MESSENGER_EVENTS, data: log.data, topics: log.topics });
            const seen = ev.eventName === 'SendCrossChainMessage' ? sentSeenAt : ev.eventName === 'ReceiveCrossChainMessage' ? deliveredSeenAt : null;
            const id = (ev.args as { messageID?: string }).messageID?.slice(2);
            if (seen && id && !seen.has(id)) seen.set(id, now);
          }
          next = head + 1n;
        }
      } catch {
        // A failed poll is retried at the next interval from the same block, as such a script would.
      }
      await new Promise((r) => setTimeout(r, Math.max(0, pollMs - (Date.now() - startedAt))));
    }
  };
  const loops = chains.map((c) => follow(c));
  return {
    sentSeenAt,
    deliveredSeenAt,
    async stop() {
      stopped = true;
      await Promise.all(loops);
      return calls;
    },
  };
}
