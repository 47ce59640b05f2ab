/** The message variants (parseMessage) and the formatting helpers of src/shared. */
import { describe, expect, it } from 'vitest';
import { effectiveStatus, messageTimestamp, parseMessage, rawRecord } from '../../src/shared/messages';
import { chainLabel } from '../../src/shared/chains';
import { summarize } from '../../src/renderer/src/logic/message-view';
import { formatDuration, formatRelative, formatTokenAmount, hexToPrintableUtf8, shortHex, tokenPriceValue } from '../../src/shared/format';

const common = {
  messageId: 'acf1c8b06f9aec48e9fcbefbbe576ae8a7ca3b327fcae111396e7cc99956674d',
  teleporterContractAddress: '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf',
  sourceBlockchainId: '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5',
  destinationBlockchainId: '2tmrrBo1Lgt1mzzvPSFt73kkQKFas5d1AP88tv9cicwoFp8BSn',
  sourceEvmChainId: '43114',
  destinationEvmChainId: '4337',
  messageNonce: '17',
  from: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  to: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  messageExecuted: false,
  receipts: [],
  receiptDelivered: false,
  rewardDetails: { address: '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E', name: 'USD Coin', symbol: 'USDC', decimals: 6, ercType: 'ERC-20', value: '1500000' },
};
const sourceTransaction = { txHash: '0x' + 'a'.repeat(64), timestamp: 1_700_000_000, gasSpent: '21000' };
const destinationTransaction = {
  txHash: '0x' + 'b'.repeat(64),
  timestamp: 1_700_000_030,
  gasSpent: '50000',
  rewardRedeemer: common.from,
  delivererAddress: common.from,
};

describe('parseMessage', () => {
  it('recognises the three variants and keeps extra fields', () => {
    expect(parseMessage({ ...common, status: 'pending', sourceTransaction, extra: 1 })).toMatchObject({ status: 'pending', extra: 1 });
    expect(parseMessage({ ...common, status: 'delivered', sourceTransaction, destinationTransaction })?.status).toBe('delivered');
    expect(parseMessage({ ...common, status: 'delivered_source_not_indexed', destinationTransaction })?.status).toBe('delivered_source_not_indexed');
  });

  it('keeps an unknown status, or a known one that fails its schema, as an unknown record with the raw JSON', () => {
    const odd = { ...common, status: 'retrying', sourceTransaction };
    expect(parseMessage(odd)).toEqual({
      status: 'unknown',
      messageId: common.messageId,
      reportedStatus: 'retrying',
      problem: 'unknown status "retrying"',
      raw: odd,
    });
    const broken = { ...common, status: 'delivered', sourceTransaction };
    const parsed = parseMessage(broken)!;
    expect(parsed.status).toBe('unknown');
    expect(effectiveStatus(parsed)).toBe('delivered');
    expect(parsed.status === 'unknown' && parsed.problem).toContain('destinationTransaction');
    expect(rawRecord(parsed)).toBe(broken);
  });

  it('keeps the variant of a record whose EVM chain IDs are empty or not decimal (the spec types them only as strings)', () => {
    for (const odd of ['', 'C', '0xa86a', ' 43114 ']) {
      const m = parseMessage({ ...common, status: 'pending', sourceTransaction, sourceEvmChainId: odd, destinationEvmChainId: odd });
      expect(m, JSON.stringify(odd)).toMatchObject({ status: 'pending', sourceEvmChainId: odd, destinationEvmChainId: odd });
    }
    // Still a string: a number or a missing ID is not the spec's record.
    expect(parseMessage({ ...common, status: 'pending', sourceTransaction, sourceEvmChainId: 43114 })?.status).toBe('unknown');
  });

  it('shows a chain by its blockchain ID when the EVM chain ID is empty or odd', () => {
    for (const odd of ['', 'C']) {
      const m = parseMessage({ ...common, status: 'delivered', sourceTransaction, destinationTransaction, sourceEvmChainId: odd, destinationEvmChainId: odd })!;
      const s = summarize(m);
      expect(s).toMatchObject({ known: true, sourceLabel: 'C-Chain', destinationLabel: 'Beam' });
      expect(s.sourceEvmChainId).toBe(odd === '' ? undefined : odd);
    }
    // An unregistered blockchain ID with an odd EVM ID: the shortened blockchain ID, not the EVM text.
    const unknownChain = '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm';
    const m = parseMessage({ ...common, status: 'pending', sourceTransaction, sourceBlockchainId: unknownChain, sourceEvmChainId: '' })!;
    expect(summarize(m).sourceLabel).toBe(chainLabel(unknownChain));
  });

  it('drops only records without a usable messageId', () => {
    expect(parseMessage({ ...common, messageId: '' })).toBeNull();
    expect(parseMessage([common])).toBeNull();
    expect(parseMessage('x')).toBeNull();
  });

  it('takes the source timestamp, else the destination timestamp', () => {
    expect(messageTimestamp(parseMessage({ ...common, status: 'delivered', sourceTransaction, destinationTransaction })!)).toBe(1_700_000_000);
    expect(messageTimestamp(parseMessage({ ...common, status: 'delivered_source_not_indexed', destinationTransaction })!)).toBe(1_700_000_030);
  });
});

describe('formatting', () => {
  it('formats token amounts exactly, for 6 and 18 decimals', () => {
    expect(formatTokenAmount('1500000', 6)).toBe('1.5');
    expect(formatTokenAmount('1234567890000000000000', 18)).toBe('1,234.56789');
    expect(formatTokenAmount('100000000000000000000000000', 18)).toBe('100,000,000');
    expect(formatTokenAmount('0', 6)).toBe('0');
    expect(formatTokenAmount('not-a-number', 6)).toBe('not-a-number');
  });

  it('computes USD values when a price is known', () => {
    expect(tokenPriceValue('2500000', 6, '2')).toBe(5);
    expect(tokenPriceValue('2500000', 6, undefined)).toBeNull();
    expect(tokenPriceValue('2500000', 6, 'abc')).toBeNull();
  });

  it('formats durations and relative times', () => {
    expect(formatDuration(42)).toBe('42 s');
    expect(formatDuration(250)).toBe('4 min 10 s');
    expect(formatDuration(3725)).toBe('1 h 2 min');
    expect(formatDuration(2 * 86400 + 3600)).toBe('2 d 1 h');
    expect(formatRelative(1_000_000 - 300_000, 1_000_000)).toBe('5 min ago');
    expect(formatRelative(1_000_000 + 7_200_000, 1_000_000)).toBe('in 2 h');
    expect(formatRelative(1_000_000, 1_000_002)).toBe('just now');
  });

  it('decodes printable UTF-8 payloads only, and shortens hex', () => {
    expect(hexToPrintableUtf8('0x68656c6c6f')).toBe('hello');
    expect(hexToPrintableUtf8('0x00ff')).toBeNull();
    expect(hexToPrintableUtf8('0x123')).toBeNull();
    expect(shortHex('0x' + 'a'.repeat(64))).toBe('0xaaaa…aaaa');
  });
});
