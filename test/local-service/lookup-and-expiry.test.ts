/** The single-message operation in both path families, and page tokens that expire after 24 h of service time. */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { get, serve, type Page } from './helpers';

type Rec = Record<string, unknown>;
const FAMILIES = ['/v1/teleporter', '/v1/icm'] as const;

describe('GET .../messages/{messageId}', () => {
  it('returns the stored record in each family, with or without 0x and in any letter case', async () => {
    const s = await serve({ clock: new ManualClock(), preload: 200, seed: 5 });
    const list = (await get(`${s.url}/v1/teleporter/messages?pageSize=100`)).json as Page;
    const dsni = list.messages.find((m) => m.status === 'delivered_source_not_indexed')!;
    const pending = list.messages.find((m) => m.status === 'pending')!;
    for (const m of [dsni, pending]) {
      const id = m.messageId as string;
      for (const form of [id, `0x${id}`, id.toUpperCase()]) {
        const t = await get(`${s.url}/v1/teleporter/messages/${form}`);
        expect(t.status).toBe(200);
        expect(t.json).toEqual(m);
      }
      const icm = await get(`${s.url}/v1/icm/messages/0x${id}`);
      const { teleporterContractAddress, icmContractAddress: _dup, ...rest } = m;
      expect(icm.json).toEqual({ ...rest, icmContractAddress: teleporterContractAddress });
    }
    // The teleporter family's source-not-indexed records carry both contract names.
    expect(dsni.icmContractAddress).toBe(dsni.teleporterContractAddress);
  });

  it.each(FAMILIES)('%s: 404 with the error body for a well-formed unknown ID, 400 naming the problem for a malformed one', async (prefix) => {
    const s = await serve({ clock: new ManualClock(), preload: 20 });
    const unknown = 'ab'.repeat(32);
    const missing = await get(`${s.url}${prefix}/messages/${unknown}`);
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ message: `Message ${unknown} was not found.`, statusCode: 404, error: 'Not Found' });
    const short = await get(`${s.url}${prefix}/messages/0x1234`);
    expect(short.status).toBe(400);
    expect(short.json).toEqual({
      message: ['messageId: Message ID must be 64 hex digits, with or without 0x (got 4).'],
      statusCode: 400,
      error: 'Bad Request',
    });
    const letters = await get(`${s.url}${prefix}/messages/${'zz'.repeat(32)}`);
    expect((letters.json as { message: string[] }).message).toEqual([
      'messageId: Message ID must be 64 hex digits, with or without 0x (it has characters other than 0-9 and a-f).',
    ]);
  });
});

describe('page token expiry', () => {
  it('accepts a token for 24 hours of service time, then answers 400 saying it expired', async () => {
    const clock = new ManualClock();
    const s = await serve({ clock, preload: 50 });
    const first = (await get(`${s.url}/v1/icm/messages?pageSize=5`)).json as Page;
    const token = encodeURIComponent(first.nextPageToken!);
    await clock.advance(24 * 3600 * 1000 - 1000);
    const still = await get(`${s.url}/v1/icm/messages?pageSize=5&pageToken=${token}`);
    expect(still.status).toBe(200);
    expect((still.json as Page).messages.map((m: Rec) => m.messageId)).not.toContain(first.messages[0]!.messageId);
    await clock.advance(2000);
    const expired = await get(`${s.url}/v1/icm/messages?pageSize=5&pageToken=${token}`);
    expect(expired.status).toBe(400);
    expect(expired.json).toEqual({
      message: ['pageToken has expired: page tokens are valid for 24 hours. Start again without pageToken.'],
      statusCode: 400,
      error: 'Bad Request',
    });
  });
});
