/**
 * Builds a message's Data API record from the events read on every configured chain: the send on the
 * source (pending), the receive on the destination (delivered; source not indexed when the source
 * chain is not configured), execution, fee top-ups and the receipt back on the source. Pure: the same
 * events give the same record, whichever order the chains were read in.
 */
import { toChecksumAddress } from '../shared/validators';
import type { EventFacts, MessageFacts, TxFacts } from './event-facts';
import type { StoredEvent } from './chain-events';

export interface TokenInfo {
  name: string;
  symbol: string;
  decimals: number;
}

export interface BuildContext {
  /** cb58 blockchain ID of a 0x-hex one. */
  cb58Of(hex: string): string;
  /** EVM chain ID (decimal) of a blockchain ID: a configured chain's, else the registry's, else '0' (not known). */
  evmChainIdOf(blockchainId: string): string;
  /** What is known of a fee token on a chain. */
  tokenInfo(blockchainId: string, token: string): TokenInfo;
}

type Of<K extends EventFacts['kind']> = StoredEvent & { facts: Extract<EventFacts, { kind: K }> };

const find = <K extends EventFacts['kind']>(events: readonly StoredEvent[], kind: K): Of<K> | undefined =>
  events.find((e): e is Of<K> => e.facts.kind === kind);
const last = <K extends EventFacts['kind']>(events: readonly StoredEvent[], kind: K): Of<K> | undefined =>
  events.filter((e): e is Of<K> => e.facts.kind === kind).at(-1);

const sourceTx = (t: TxFacts) => ({ txHash: t.txHash, timestamp: t.timestamp, gasSpent: t.gasSpent });

/** The record of a message, or null when nothing read so far says where it came from (e.g. only a receipt). */
export function buildRecord(events: readonly StoredEvent[], ctx: BuildContext): Record<string, unknown> | null {
  const sent = find(events, 'sent');
  const received = find(events, 'received');
  if (!sent && !received) return null;
  const message: MessageFacts = sent?.facts.message ?? received!.facts.message;
  const messageId = (sent ?? received)!.facts.messageId;
  const source = sent ? sent.chain : ctx.cb58Of(received!.facts.sourceBlockchainIdHex);
  const destination = received ? received.chain : ctx.cb58Of(message.destinationBlockchainIdHex);
  const messenger = toChecksumAddress((sent ?? received)!.facts.messenger);
  // The fee as it stands: the send's, raised by every AddFeeAmount (each carries the new total).
  const fee = last(events, 'fee_added')?.facts ?? sent?.facts ?? last(events, 'receipt')?.facts;
  const feeToken = fee ? toChecksumAddress(fee.feeToken) : toChecksumAddress('0x' + '0'.repeat(40));
  const token = ctx.tokenInfo(source, feeToken);
  const status = received ? (sent ? 'delivered' : 'delivered_source_not_indexed') : 'pending';
  const executedAt = events.filter((e) => e.facts.kind === 'executed' || e.facts.kind === 'execution_failed').at(-1);
  // The messenger runs only a message with a payload: a delivered one without (a receipts-only message)
  // emits no execution event and has nothing to retry, so it is not a failed execution.
  const nothingToRun = received !== undefined && (message.data === '0x' || message.data === '');
  const rec: Record<string, unknown> = {
    messageId,
    teleporterContractAddress: messenger,
    ...(status === 'delivered_source_not_indexed' ? { icmContractAddress: messenger } : {}),
    sourceBlockchainId: source,
    destinationBlockchainId: destination,
    sourceEvmChainId: ctx.evmChainIdOf(source),
    destinationEvmChainId: ctx.evmChainIdOf(destination),
    messageNonce: message.nonce,
    from: toChecksumAddress(message.from),
    to: toChecksumAddress(message.to),
    data: message.data,
    // Beyond the Data API's record: what a retryMessageExecution call must repeat exactly (relayers/hand-calls.ts).
    requiredGasLimit: message.requiredGasLimit,
    ...(message.allowedRelayerAddresses ? { allowedRelayerAddresses: message.allowedRelayerAddresses.map(toChecksumAddress) } : {}),
    messageExecuted: executedAt ? executedAt.facts.kind === 'executed' : nothingToRun,
    receipts: message.receipts.map((r) => ({ receivedMessageNonce: r.receivedMessageNonce, relayerRewardAddress: toChecksumAddress(r.relayerRewardAddress) })),
    receiptDelivered: find(events, 'receipt') !== undefined,
    rewardDetails: { address: feeToken, name: token.name, symbol: token.symbol, decimals: token.decimals, ercType: 'ERC-20', value: fee?.feeAmount ?? '0' },
    status,
  };
  if (sent) rec.sourceTransaction = sourceTx(sent.facts.tx);
  if (received) {
    const t = received.facts.tx;
    rec.destinationTransaction = {
      ...sourceTx(t),
      rewardRedeemer: toChecksumAddress(received.facts.rewardRedeemer),
      // The receive transaction's sender: the relayer that paid for the delivery.
      delivererAddress: toChecksumAddress(t.txFrom),
    };
  }
  return rec;
}
