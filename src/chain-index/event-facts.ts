/**
 * One messenger log turned into plain facts (JSON-safe: big numbers as decimal strings), with what
 * its transaction and block add: the sender, the gas it cost and the block time. Records are built
 * from these facts alone, so a rebuild after a reorg or a restart asks the node for nothing.
 */
import { decodeEventLog, toEventSelector, type Log } from 'viem';
import type { SkipReason } from '../shared/own-nodes';
import { MESSAGE_EVENTS, type MessageEventName } from './messenger-events';

export interface MessageFacts {
  nonce: string;
  from: string;
  destinationBlockchainIdHex: string;
  to: string;
  requiredGasLimit: string;
  /** Absent in facts stored before it was kept: a retry call cannot be built for those (relayers/hand-calls.ts). */
  allowedRelayerAddresses?: string[];
  receipts: { receivedMessageNonce: string; relayerRewardAddress: string }[];
  data: string;
}

export interface TxFacts {
  txHash: string;
  /** Unix seconds of the block. */
  timestamp: number;
  /** gasUsed * effectiveGasPrice, in wei. */
  gasSpent: string;
  /** The transaction's sender. */
  txFrom: string;
}

interface Base {
  messageId: string;
  /** The messenger contract that emitted the log. */
  messenger: string;
  tx: TxFacts;
}

export type EventFacts = Base &
  (
    | { kind: 'sent'; message: MessageFacts; feeToken: string; feeAmount: string }
    | { kind: 'fee_added'; feeToken: string; feeAmount: string }
    | { kind: 'received'; sourceBlockchainIdHex: string; deliverer: string; rewardRedeemer: string; message: MessageFacts }
    | { kind: 'executed'; sourceBlockchainIdHex: string }
    | { kind: 'execution_failed'; sourceBlockchainIdHex: string }
    | { kind: 'receipt'; destinationBlockchainIdHex: string; relayerRewardAddress: string; feeToken: string; feeAmount: string }
  );

/** A decoded messenger log of one of the message events, before its transaction is known. */
export interface DecodedLog {
  name: MessageEventName;
  args: Record<string, unknown>;
  log: Log<bigint, number, false>;
}

/** Each message event's selector (topic 0) and how many topics it has (the selector and its indexed fields). */
const TOPIC_COUNTS = new Map(MESSAGE_EVENTS.map((e) => [toEventSelector(e), 1 + e.inputs.filter((i) => 'indexed' in i && i.indexed).length]));

/**
 * Decodes a messenger log: null for the messenger's other events (not about one message), a skip
 * reason for a message event that does not decode as itself (a malformed or forged log).
 */
export function decodeMessengerLog(log: Log<bigint, number, false>): DecodedLog | null | SkipReason {
  const topics = TOPIC_COUNTS.get(log.topics[0]?.toLowerCase() as `0x${string}`);
  if (topics === undefined) return null;
  if (log.topics.length !== topics) return 'wrong_topic_count';
  try {
    const ev = decodeEventLog({ abi: MESSAGE_EVENTS, data: log.data, topics: log.topics, strict: true });
    return { name: ev.eventName, args: ev.args, log };
  } catch {
    return 'undecodable';
  }
}

type RawMessage = {
  messageNonce: bigint;
  originSenderAddress: string;
  destinationBlockchainID: string;
  destinationAddress: string;
  requiredGasLimit: bigint;
  allowedRelayerAddresses: readonly string[];
  receipts: readonly { receivedMessageNonce: bigint; relayerRewardAddress: string }[];
  message: string;
};

function messageFacts(m: RawMessage): MessageFacts {
  return {
    nonce: m.messageNonce.toString(),
    from: m.originSenderAddress,
    destinationBlockchainIdHex: m.destinationBlockchainID,
    to: m.destinationAddress,
    requiredGasLimit: m.requiredGasLimit.toString(),
    allowedRelayerAddresses: [...m.allowedRelayerAddresses],
    receipts: m.receipts.map((r) => ({ receivedMessageNonce: r.receivedMessageNonce.toString(), relayerRewardAddress: r.relayerRewardAddress })),
    data: m.message,
  };
}

type Fee = { feeTokenAddress: string; amount: bigint };

export function factsOf(d: DecodedLog, tx: TxFacts): EventFacts {
  const a = d.args;
  const base = { messageId: (a.messageID as string).slice(2).toLowerCase(), messenger: d.log.address, tx };
  switch (d.name) {
    case 'SendCrossChainMessage': {
      const fee = a.feeInfo as Fee;
      return { ...base, kind: 'sent', message: messageFacts(a.message as RawMessage), feeToken: fee.feeTokenAddress, feeAmount: fee.amount.toString() };
    }
    case 'AddFeeAmount': {
      const fee = a.updatedFeeInfo as Fee;
      return { ...base, kind: 'fee_added', feeToken: fee.feeTokenAddress, feeAmount: fee.amount.toString() };
    }
    case 'ReceiveCrossChainMessage':
      return {
        ...base,
        kind: 'received',
        sourceBlockchainIdHex: a.sourceBlockchainID as string,
        deliverer: a.deliverer as string,
        rewardRedeemer: a.rewardRedeemer as string,
        message: messageFacts(a.message as RawMessage),
      };
    case 'MessageExecuted':
      return { ...base, kind: 'executed', sourceBlockchainIdHex: a.sourceBlockchainID as string };
    case 'MessageExecutionFailed':
      return { ...base, kind: 'execution_failed', sourceBlockchainIdHex: a.sourceBlockchainID as string };
    case 'ReceiptReceived': {
      const fee = a.feeInfo as Fee;
      return {
        ...base,
        kind: 'receipt',
        destinationBlockchainIdHex: a.destinationBlockchainID as string,
        relayerRewardAddress: a.relayerRewardAddress as string,
        feeToken: fee.feeTokenAddress,
        feeAmount: fee.amount.toString(),
      };
    }
  }
}
