/**
 * Opaque keyset page tokens: base64url(JSON {v, p: position, f: query fingerprint, t: issued}) + "." + HMAC.
 * The HMAC (per-database secret) rejects forged or edited tokens; the fingerprint rejects a token
 * used with another operation or other filters; like the public API's, a token expires 24 hours
 * (service clock) after it was issued. pageSize may change between pages.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../shared/clock';
import { fail, ok, type Parsed } from '../shared/result';

const PayloadSchema = z.object({ v: z.literal(2), p: z.number().int().nonnegative(), f: z.string().min(1), t: z.number().int().nonnegative() }).strict();
/** How long a token stays valid (the public API's is about a day). */
const PAGE_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
const MAC_BYTES = 16;

/** A stable fingerprint of an operation and its normalised filters (pageSize and pageToken excluded). */
export function queryFingerprint(operation: string, filters: Record<string, string | undefined>): string {
  const parts = Object.keys(filters)
    .sort()
    .filter((k) => filters[k] !== undefined)
    .map((k) => [k, filters[k]]);
  return createHash('sha256')
    .update(JSON.stringify([operation, parts]))
    .digest('base64url')
    .slice(0, 16);
}

export class PageTokenCodec {
  constructor(
    private readonly secret: Buffer,
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  encode(position: number, fingerprint: string): string {
    const body = Buffer.from(JSON.stringify({ v: 2, p: position, f: fingerprint, t: Math.floor(this.clock.now() / 1000) })).toString('base64url');
    return `${body}.${this.mac(body).toString('base64url')}`;
  }

  /** The position to continue from, or a message for the caller saying what is wrong with the token. */
  decode(token: string, fingerprint: string): Parsed<number> {
    const [body, mac, extra] = token.split('.');
    if (!body || !mac || extra !== undefined) return fail('pageToken is malformed: pass the nextPageToken of a previous response unchanged.');
    const given = Buffer.from(mac, 'base64url');
    const expected = this.mac(body);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return fail('pageToken is invalid: it was not issued by this service or has been altered.');
    }
    let payload: z.infer<typeof PayloadSchema>;
    try {
      payload = PayloadSchema.parse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
    } catch {
      return fail('pageToken is malformed: pass the nextPageToken of a previous response unchanged.');
    }
    if (payload.f !== fingerprint) {
      return fail('pageToken belongs to a different query: the operation, address or filters changed since it was issued. Start again without pageToken.');
    }
    if (this.clock.now() - payload.t * 1000 > PAGE_TOKEN_TTL_MS) {
      return fail('pageToken has expired: page tokens are valid for 24 hours. Start again without pageToken.');
    }
    return ok(payload.p);
  }

  private mac(body: string): Buffer {
    return createHmac('sha256', this.secret).update(body).digest().subarray(0, MAC_BYTES);
  }
}
