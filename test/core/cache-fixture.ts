/**
 * A large local cache for search tests and the search benchmark: records built cheaply (no checksum
 * work per record) and written straight into the core's store, so 100,000 of them load in seconds.
 */
import { randomBytes } from 'node:crypto';
import { parseMessage, type TeleporterMessage } from '../../src/shared/messages';
import { searchTextOf } from '../../src/core/store';
import type { Store } from '../../src/core/store';
import { BEAM, C_CHAIN, randomAddress } from './helpers';

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
  if (status !== 'pending')
    rec.destinationTransaction = {
      txHash: '0x' + randomBytes(32).toString('hex'),
      timestamp: ts + 10,
      gasSpent: '1',
      rewardRedeemer: to,
      delivererAddress: to,
    };
  return rec;
}

export interface FilledCache {
  /** The 500 addresses the messages go between (sender i % 500, recipient i*7 % 500). */
  people: string[];
  /** The message at position `probeAt`. */
  probe: TeleporterMessage;
}

const STATUSES = ['pending', 'delivered', 'delivered', 'delivered', 'delivered_source_not_indexed'];

/** Writes `count` messages (one per second, C-Chain → Beam, mainnet) into the store's cache. */
export function fillCache(store: Store, count: number, probeAt = Math.floor(count / 2)): FilledCache {
  const people = Array.from({ length: 500 }, () => randomAddress());
  let probe: TeleporterMessage | undefined;
  store.transaction(() => {
    for (let i = 0; i < count; i++) {
      const raw = quickRecord(i, STATUSES[i % STATUSES.length]!, people[i % 500]!, people[(i * 7) % 500]!);
      const m = parseMessage(raw) as TeleporterMessage;
      if (i === probeAt) probe = m;
      store.messages.insert({
        messageId: m.messageId,
        network: 'mainnet',
        status: m.status === 'unknown' ? m.reportedStatus : m.status,
        receiptDelivered: raw.receiptDelivered === true,
        from: raw.from as string,
        to: raw.to as string,
        sourceChain: raw.sourceBlockchainId as string,
        destinationChain: raw.destinationBlockchainId as string,
        // As the engine stores them: the record's own transaction times, null where it has none.
        sourceTs: (raw.sourceTransaction as { timestamp: number } | undefined)?.timestamp ?? null,
        destinationTs: (raw.destinationTransaction as { timestamp: number } | undefined)?.timestamp ?? null,
        raw: JSON.stringify(raw),
        searchText: searchTextOf(m, raw),
        seenAt: 1,
        tracked: false,
        pendingSince: null,
        stuckFired: false,
        source: 'local',
      });
    }
  });
  return { people, probe: probe! };
}
