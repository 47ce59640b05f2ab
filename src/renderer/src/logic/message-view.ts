import { chainByBlockchainId, chainByEvmChainId, chainLabel, explorerAddressUrl, explorerTxUrl, type ChainInfo } from '../../../shared/chains';
import { formatMoney, formatTokenAmount, tokenPriceValue } from '../../../shared/format';
import { effectiveStatus, rawRecord, type TeleporterMessage } from '../../../shared/messages';
import { statusWord } from '../../../shared/vocabulary';

/** Display fields of any variant, read defensively from the raw record so unknown ones show too. */
export interface MessageSummary {
  messageId: string;
  status: string;
  known: boolean;
  sourceBlockchainId?: string;
  destinationBlockchainId?: string;
  sourceEvmChainId?: string;
  destinationEvmChainId?: string;
  sourceLabel: string;
  destinationLabel: string;
  from?: string;
  to?: string;
  nonce?: string;
  sourceTxHash?: string;
  sourceTimestamp?: number;
  destinationTxHash?: string;
  destinationTimestamp?: number;
  latencySeconds?: number;
  receiptDelivered?: boolean;
  /** value: the reward in the price's own currency (`currency`, upper case); usd: the same only when that currency is USD. */
  reward?: { amount: string; symbol: string; value: string | null; currency: string | null; usd: string | null };
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const obj = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

function chainFor(blockchainId?: string, evmChainId?: string): ChainInfo | undefined {
  return (blockchainId ? chainByBlockchainId(blockchainId) : undefined) ?? (evmChainId ? chainByEvmChainId(evmChainId) : undefined);
}

export function rewardOf(r: Record<string, unknown>): MessageSummary['reward'] {
  const rd = obj(r.rewardDetails);
  if (!rd) return undefined;
  const value = str(rd.value);
  const decimals = num(rd.decimals);
  if (value === undefined || decimals === undefined) return undefined;
  const price = obj(rd.price);
  const pv = price?.value;
  const worth = tokenPriceValue(value, decimals, typeof pv === 'string' || typeof pv === 'number' ? pv : undefined);
  const code = worth === null ? undefined : str(price?.currencyCode);
  const shown = code === undefined ? null : formatMoney(worth, code);
  const currency = code === undefined ? null : code.toUpperCase();
  return { amount: formatTokenAmount(value, decimals), symbol: str(rd.symbol) ?? '', value: shown, currency, usd: currency === 'USD' ? shown : null };
}

/** `reward: false` skips the reward (its USD formatting builds an Intl formatter per call): for lists that do not show it. */
export function summarize(m: TeleporterMessage, opts: { reward?: boolean } = {}): MessageSummary {
  const r = rawRecord(m);
  const src = obj(r.sourceTransaction);
  const dst = obj(r.destinationTransaction);
  const s: MessageSummary = {
    messageId: m.messageId,
    status: effectiveStatus(m),
    known: m.status !== 'unknown',
    sourceBlockchainId: str(r.sourceBlockchainId),
    destinationBlockchainId: str(r.destinationBlockchainId),
    sourceEvmChainId: str(r.sourceEvmChainId),
    destinationEvmChainId: str(r.destinationEvmChainId),
    sourceLabel: chainLabel(str(r.sourceBlockchainId) ?? str(r.sourceEvmChainId)),
    destinationLabel: chainLabel(str(r.destinationBlockchainId) ?? str(r.destinationEvmChainId)),
    from: str(r.from),
    to: str(r.to),
    nonce: str(r.messageNonce),
    sourceTxHash: str(src?.txHash),
    sourceTimestamp: num(src?.timestamp),
    destinationTxHash: str(dst?.txHash),
    destinationTimestamp: num(dst?.timestamp),
    receiptDelivered: typeof r.receiptDelivered === 'boolean' ? r.receiptDelivered : undefined,
    reward: opts.reward === false ? undefined : rewardOf(r),
  };
  if (s.sourceTimestamp !== undefined && s.destinationTimestamp !== undefined) {
    s.latencySeconds = Math.max(0, s.destinationTimestamp - s.sourceTimestamp);
  }
  return s;
}

/** Newest known time of the message, seconds. */
export const summaryTime = (s: MessageSummary): number | undefined => s.sourceTimestamp ?? s.destinationTimestamp;

export type TagType = 'default' | 'info' | 'success' | 'warning' | 'error';

const STATUS_TYPE: Record<string, TagType> = { pending: 'warning', delivered: 'success', delivered_source_not_indexed: 'info' };

/** A status's tag: its words from the one vocabulary (the same in every view), its colour by kind. */
export function statusTag(status: string): { type: TagType; label: string } {
  return { type: STATUS_TYPE[status] ?? 'error', label: statusWord(status) };
}

interface ExplorerLink {
  label: string;
  url: string;
}

/** Explorer links for the transactions and addresses of a message (registry chains only). */
export function explorerLinks(s: MessageSummary): ExplorerLink[] {
  const links: ExplorerLink[] = [];
  const srcChain = chainFor(s.sourceBlockchainId, s.sourceEvmChainId);
  const dstChain = chainFor(s.destinationBlockchainId, s.destinationEvmChainId);
  if (srcChain && s.sourceTxHash) links.push({ label: `Source tx on ${srcChain.name}`, url: explorerTxUrl(srcChain, s.sourceTxHash) });
  if (dstChain && s.destinationTxHash) links.push({ label: `Destination tx on ${dstChain.name}`, url: explorerTxUrl(dstChain, s.destinationTxHash) });
  if (srcChain && s.from) links.push({ label: `Sender on ${srcChain.name}`, url: explorerAddressUrl(srcChain, s.from) });
  if (dstChain && s.to) links.push({ label: `Recipient on ${dstChain.name}`, url: explorerAddressUrl(dstChain, s.to) });
  return links;
}
