/** A node's eth_getLogs answer, log by log: each malformed one is skipped under its named reason, the good ones kept. */
import { describe, expect, it } from 'vitest';
import { NodeAnswerError } from '../../src/shared/json-rpc-fetch';
import { MAX_LOG_DATA_BYTES, readLogs, readQuantity } from '../../src/chain-index/node-answers';

const MESSENGER = '0x253b2784c75e510dd0ff1da844684a1aa0aa5fcf';
const h32 = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const good = {
  address: MESSENGER,
  topics: [h32(1), h32(2)],
  data: '0x',
  blockNumber: '0x10',
  blockHash: h32(3),
  transactionHash: h32(4),
  logIndex: '0x0',
  transactionIndex: null,
  blockTimestamp: '0x5f5e100',
  removed: false,
};

describe('readLogs', () => {
  it('keeps good logs (null optional fields are absent, not malformed) and names every skipped one', () => {
    const r = readLogs(
      [
        good,
        { ...good, blockNumber: '0xZZ' },
        { ...good, logIndex: '-0x5' },
        { ...good, transactionHash: null },
        null,
        { ...good, topics: [h32(1), h32(2), h32(3), h32(4), h32(5)] },
        { ...good, data: `0x${'ab'.repeat(MAX_LOG_DATA_BYTES + 1)}` },
        { ...good, blockNumber: '0x99' },
        { ...good, address: `0x${'1'.repeat(40)}` },
        { ...good, removed: true },
      ],
      0x10,
      0x20,
      [MESSENGER],
    );
    expect(r.logs).toHaveLength(1);
    expect(r.logs[0]).toMatchObject({ blockNumber: 16n, logIndex: 0, transactionIndex: 0, blockTimestamp: 100_000_000n });
    expect(r.skipped).toEqual([
      'bad_hex',
      'negative_number',
      'missing_field',
      'missing_field',
      'wrong_topic_count',
      'oversized_data',
      'not_asked_for',
      'not_asked_for',
    ]);
  });

  it('says plainly when the answer is not a list of logs, or a head is not a number', () => {
    expect(() => readLogs({ oops: 1 }, 0, 1, [MESSENGER])).toThrow(NodeAnswerError);
    expect(() => readQuantity('-0x5', 'eth_blockNumber')).toThrow(/eth_blockNumber with something that is not a number/);
    expect(() => readQuantity(`0x${'f'.repeat(20)}`, 'eth_blockNumber')).toThrow(NodeAnswerError);
    expect(readQuantity('0xa86a', 'eth_chainId')).toBe(43114n);
  });
});
