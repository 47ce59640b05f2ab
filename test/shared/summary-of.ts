/**
 * The cache search row a full record implies, derived from the record itself: the core builds rows
 * from its columns, and tests compare the two (the renderer's fake core answers with these).
 */
import type { CacheSummary } from '../../src/shared/contract';
import { effectiveStatus, messageTimestamp, rawRecord, type TeleporterMessage } from '../../src/shared/messages';
import type { Network } from '../../src/shared/validators';

const idText = (v: unknown): string | null => (typeof v === 'string' && v ? v : typeof v === 'number' ? String(v) : null);

export function summaryOf(message: TeleporterMessage, network: Network, lastSeenAt: number, source = 'local'): CacheSummary {
  const r = rawRecord(message);
  return {
    messageId: message.messageId,
    network,
    status: effectiveStatus(message),
    receiptDelivered: r.receiptDelivered === true,
    from: idText(r.from),
    sourceChain: idText(r.sourceBlockchainId) ?? idText(r.sourceEvmChainId),
    destinationChain: idText(r.destinationBlockchainId) ?? idText(r.destinationEvmChainId),
    time: messageTimestamp(message) ?? null,
    lastSeenAt,
    source,
  };
}
