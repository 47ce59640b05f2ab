/** The list envelope of a Data API page, checked by its zod schema: unknown fields kept, clear errors, never a throw. */
import { describe, expect, it } from 'vitest';
import { parseListBody, parseMessageBody } from '../../src/core/data-api/response-body';
import { apiRecord } from './helpers';

const HOST = 'api.example';
/** When the page is read: records may carry times up to a day past it (record-bounds.ts). */
const NOW = Date.UTC(2026, 0, 1, 12);
const record = apiRecord({ status: 'pending' });
const list = (body: unknown) => parseListBody(JSON.stringify(body), HOST, NOW);

describe('parseListBody', () => {
  it('reads a page whose envelope has fields it does not know, and keeps the token', () => {
    const r = list({ messages: [record], nextPageToken: 't2', cursorVersion: 3, meta: { x: 1 } });
    expect(r).toMatchObject({ ok: true, value: { nextPageToken: 't2', rejected: 0, fetchedAt: NOW } });
    expect(r.ok && r.value.messages.map((m) => m.messageId)).toEqual([record.messageId]);
  });

  it('takes a null or empty token as the last page', () => {
    for (const nextPageToken of [null, '', undefined]) {
      const r = list({ messages: [], nextPageToken });
      expect(r.ok && 'nextPageToken' in r.value).toBe(false);
    }
  });

  it('counts records without a messageId and keeps the rest', () => {
    const r = list({ messages: [record, { status: 'pending' }, 7] });
    expect(r).toMatchObject({ ok: true, value: { rejected: 2 } });
    expect(r.ok && r.value.messages).toHaveLength(1);
  });

  it('says what is wrong with a body that is not a page, without throwing', () => {
    for (const body of [null, [], 'x', 3, {}, { messages: {} }, { items: [record] }]) {
      expect(list(body)).toEqual({
        ok: false,
        error: { kind: 'invalid_response', message: `${HOST} sent a response without a messages list. Retrying; if it persists check the base URL.` },
      });
    }
    expect(parseListBody('{not json', HOST, 0)).toMatchObject({ ok: false, error: { kind: 'invalid_response', message: expect.stringContaining('not JSON') } });
  });

  it('names a token of the wrong type and its value', () => {
    expect(list({ messages: [], nextPageToken: 42 })).toMatchObject({
      ok: false,
      error: { kind: 'invalid_response', message: expect.stringContaining('sent nextPageToken as a number (42); the Data API sends a string') },
    });
    expect(list({ messages: [], nextPageToken: { a: 1 } })).toMatchObject({ ok: false, error: { message: expect.stringContaining('as a object ({"a":1})') } });
  });

  it('skips a record out of bounds with its reason and field; the rest of the page and its token are used', () => {
    const ms = apiRecord({ status: 'pending' });
    (ms.sourceTransaction as { timestamp: number }).timestamp = NOW; // milliseconds
    const r = list({ messages: [ms, record], nextPageToken: 't3' });
    expect(r).toMatchObject({
      ok: true,
      value: {
        rejected: 1,
        nextPageToken: 't3',
        skipped: [{ reason: 'timestamp_out_of_range', field: 'sourceTransaction.timestamp', messageId: ms.messageId }],
      },
    });
    expect(r.ok && r.value.messages.map((m) => m.messageId)).toEqual([record.messageId]);
  });
});

describe('parseMessageBody', () => {
  it('skips one record out of bounds: an error that says which and why, marked as a skip (never retried)', () => {
    const huge = apiRecord({ status: 'pending' });
    (huge.rewardDetails as { value: string }).value = (2n ** 256n).toString();
    expect(parseMessageBody(JSON.stringify(huge), HOST, NOW)).toEqual({
      ok: false,
      error: {
        kind: 'invalid_response',
        message: expect.stringContaining(`sent message ${huge.messageId as string} with rewardDetails.value out of bounds (amount out of range)`),
      },
      skipped: { reason: 'amount_out_of_range', field: 'rewardDetails.value', messageId: huge.messageId },
    });
    expect(parseMessageBody(JSON.stringify(record), HOST, NOW)).toMatchObject({ ok: true, value: { messageId: record.messageId } });
  });
});
