/** The boundary a Data API record crosses (src/shared/record-bounds.ts): each reason at its edge, and what passes. */
import { describe, expect, it } from 'vitest';
import { EARLIEST_RECORD_TIME_S, FUTURE_TIME_TOLERANCE_S, MAX_MESSAGE_DATA_BYTES, MAX_RECORD_FIELD_CHARS } from '../../src/shared/policy';
import { recordSkip, type RecordSkipReason } from '../../src/shared/record-bounds';
import { apiRecord } from '../core/helpers';

const NOW = Date.UTC(2026, 5, 1, 12);
const LATEST = NOW / 1000 + FUTURE_TIME_TOLERANCE_S;

/** A delivered record with `change` applied to it (a path of keys, the value to put there). */
function changed(path: (string | number)[], value: unknown): Record<string, unknown> {
  const rec = apiRecord({ status: 'delivered', ts: NOW / 1000 - 60 });
  let at = rec as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  at[path.at(-1)!] = value;
  return rec;
}

const skip = (rec: unknown) => recordSkip(rec, NOW);

describe('recordSkip', () => {
  it('lets a good record through, and one that only lacks fields or has a status it does not know (kept as unknown)', () => {
    expect(skip(apiRecord({ status: 'delivered', ts: NOW / 1000 }))).toBeNull();
    expect(skip({ messageId: 'ab'.repeat(32) })).toBeNull();
    expect(skip(changed(['status'], 'teleported'))).toBeNull();
    expect(skip(changed(['rewardDetails', 'price'], null))).toBeNull();
    expect(skip(changed(['brandNewField'], { nested: [1, 'two', { three: true }] }))).toBeNull();
    expect(skip(changed(['messageId'], `0x${'AB'.repeat(32)}`))).toBeNull();
  });

  it('takes times from 2020-01-01 to a day past now, in whole seconds, and nothing else', () => {
    for (const ts of [EARLIEST_RECORD_TIME_S, LATEST]) expect(skip(changed(['sourceTransaction', 'timestamp'], ts)), String(ts)).toBeNull();
    for (const ts of [EARLIEST_RECORD_TIME_S - 1, LATEST + 1, NOW, 1795897196118, 1.5e9 + 0.5, -1, 0, 2 ** 60, Number.MAX_VALUE]) {
      expect(skip(changed(['destinationTransaction', 'timestamp'], ts)), String(ts)).toMatchObject({
        reason: 'timestamp_out_of_range',
        field: 'destinationTransaction.timestamp',
      });
    }
  });

  it.each<[string, (string | number)[], unknown, RecordSkipReason]>([
    ['a fee past uint256', ['rewardDetails', 'value'], (2n ** 256n).toString(), 'amount_out_of_range'],
    ['a negative fee', ['rewardDetails', 'value'], '-5', 'amount_out_of_range'],
    ['gas as a fraction', ['sourceTransaction', 'gasSpent'], '1.5', 'amount_out_of_range'],
    ['gas in hex', ['destinationTransaction', 'gasSpent'], '0x10', 'amount_out_of_range'],
    ['a price that is not a number', ['rewardDetails', 'price'], { currencyCode: 'usd', value: 'NaN' }, 'amount_out_of_range'],
    ['a negative price', ['rewardDetails', 'price'], { currencyCode: 'usd', value: -1 }, 'amount_out_of_range'],
    ['a nonce past uint256', ['messageNonce'], (2n ** 256n).toString(), 'number_out_of_range'],
    ['a nonce in words', ['messageNonce'], 'one', 'number_out_of_range'],
    ['decimals past 255', ['rewardDetails', 'decimals'], 256, 'number_out_of_range'],
    ['a receipt nonce below zero', ['receipts'], [{ receivedMessageNonce: '-1', relayerRewardAddress: `0x${'1'.repeat(40)}` }], 'number_out_of_range'],
    ['an ID that is not 64 hex digits', ['messageId'], 'abc', 'malformed'],
    ['a timestamp as text', ['sourceTransaction', 'timestamp'], '1767225600', 'malformed'],
    ['an address that is not one', ['from'], '0x1234', 'malformed'],
    ['a hash that is not one', ['destinationTransaction', 'txHash'], 'hash', 'malformed'],
    ['a flag that is not one', ['receiptDelivered'], 'yes', 'malformed'],
    ['receipts that are not a list', ['receipts'], {}, 'malformed'],
    ['a payload that is not hex', ['data'], '0xzz', 'malformed'],
    ['a long status', ['status'], 'x'.repeat(65), 'field_too_long'],
    ['a long name', ['rewardDetails', 'name'], 'n'.repeat(MAX_RECORD_FIELD_CHARS + 1), 'field_too_long'],
    ['a payload over 1 MiB', ['data'], `0x${'ab'.repeat(MAX_MESSAGE_DATA_BYTES + 1)}`, 'field_too_long'],
  ])('skips %s', (_what, path, value, reason) => {
    expect(skip(changed(path, value))).toMatchObject({ reason });
  });

  it('names only plain fields, the ID only when well-formed, and never recurses into a deep record', () => {
    const id = 'cd'.repeat(32);
    expect(skip({ messageId: id, ['<b>' + 'k'.repeat(50)]: 'x'.repeat(MAX_RECORD_FIELD_CHARS + 1) })).toEqual({
      reason: 'field_too_long',
      field: '?',
      messageId: id,
    });
    expect(skip({ messageId: 7 })).toEqual({ reason: 'malformed', field: 'messageId', messageId: null });
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(skip({ messageId: id, deep })).toMatchObject({ reason: 'malformed', messageId: id });
    const wide = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${i}`, 'v'.repeat(1000)]));
    expect(skip({ messageId: id, ...wide })).toEqual({ reason: 'record_too_large', field: 'record', messageId: id });
    for (const notARecord of [null, 7, 'x', [], [{ messageId: id }]])
      expect(skip(notARecord)).toEqual({ reason: 'malformed', field: 'record', messageId: null });
  });
});
