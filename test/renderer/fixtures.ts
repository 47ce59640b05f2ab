import { parseMessage, type TeleporterMessage } from '../../src/shared/messages';
import { toChecksumAddress } from '../../src/shared/validators';

export const C_CHAIN = { blockchainId: '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5', evm: '43114' };
export const BEAM = { blockchainId: '2tmrrBo1Lgt1mzzvPSFt73kkQKFas5d1AP88tv9cicwoFp8BSn', evm: '4337' };
export const DFK = { blockchainId: 'q2aTwKuyzgs8pynF7UXBZCU7DejbZbZ6EUyHr3JQzYgwNPUPi', evm: '53935' };
export const FUJI_C = { blockchainId: 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp', evm: '43113' };
export const DISPATCH = { blockchainId: '2D8RG4UpSXbPbvPCAWppNJyqTG2i2CAXSkTgmTBBvs7GKNZjsY', evm: '779672' };

export const hex = (n: number, len: number): string => n.toString(16).padStart(len, '0');
export const addr = (n: number): string => toChecksumAddress('0x' + hex(n * 7919 + 0xabcdef, 40));
export const msgId = (n: number): string => hex(n * 104729 + 0x1234, 64);
export const txHash = (n: number): string => '0x' + hex(n * 31337 + 0xbeef, 64);

export interface MessageSpec {
  n: number;
  status?: string; // 'pending', 'delivered', 'delivered_source_not_indexed' or anything the API may add
  src?: { blockchainId: string; evm: string };
  dst?: { blockchainId: string; evm: string };
  from?: string;
  to?: string;
  /** Source timestamp, seconds. */
  at?: number;
  latency?: number;
  data?: string;
  extra?: Record<string, unknown>;
}

/** A raw record as the Data API would send it. */
export function rawMessage(s: MessageSpec): Record<string, unknown> {
  const status = s.status ?? 'delivered';
  const src = s.src ?? C_CHAIN;
  const dst = s.dst ?? BEAM;
  const at = s.at ?? 1_767_225_600 - s.n * 60;
  const rec: Record<string, unknown> = {
    messageId: msgId(s.n),
    teleporterContractAddress: '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf',
    sourceBlockchainId: src.blockchainId,
    destinationBlockchainId: dst.blockchainId,
    sourceEvmChainId: src.evm,
    destinationEvmChainId: dst.evm,
    messageNonce: String(s.n),
    from: s.from ?? addr(s.n),
    to: s.to ?? addr(s.n + 1000),
    data: s.data ?? '0x48656c6c6f2c2054656c65706f7274657221',
    messageExecuted: status !== 'pending',
    receipts: status === 'pending' ? [] : [{ receivedMessageNonce: String(s.n), relayerRewardAddress: addr(s.n + 5000) }],
    receiptDelivered: status === 'delivered',
    rewardDetails: {
      address: addr(77),
      name: 'Wrapped AVAX',
      symbol: 'WAVAX',
      decimals: 18,
      logoUri: 'https://example.invalid/wavax.png',
      ercType: 'ERC-20',
      price: { currencyCode: 'usd', value: '25.5' },
      value: '1500000000000000000',
    },
    status,
    ...s.extra,
  };
  if (status !== 'delivered_source_not_indexed') rec.sourceTransaction = { txHash: txHash(s.n), timestamp: at, gasSpent: '21000' };
  if (status !== 'pending') {
    rec.destinationTransaction = {
      txHash: txHash(s.n + 1),
      timestamp: at + (s.latency ?? 90),
      gasSpent: '180000',
      rewardRedeemer: addr(s.n + 6000),
      delivererAddress: addr(s.n + 7000),
    };
  }
  return rec;
}

export function message(s: MessageSpec): TeleporterMessage {
  const m = parseMessage(rawMessage(s));
  if (!m) throw new Error('fixture without messageId');
  return m;
}
