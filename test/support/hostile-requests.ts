/**
 * fast-check arbitraries of hostile HTTP/1.1 requests (targets, query strings, header lines, raw
 * bytes) and the property both servers must keep: every request gets a status, every refusal
 * carries the server's JSON error body, and the next ordinary request is still served.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { KNOWN_HOSTILE_TARGETS, rawGet, sendRaw, type RawReply } from './raw-http';

const PIECES = [
  '/',
  '//',
  '\\',
  '@',
  ':',
  '?',
  '#',
  '%',
  '%2e',
  '%00',
  '%zz',
  '..',
  '.',
  '&',
  '=',
  '+',
  ';',
  '[',
  ']',
  '~',
  'a',
  'é',
  '日',
  '\u0000',
  'v1',
  'teleporter',
  'icm',
  'messages',
  'addresses',
  '_local',
  'info',
  'api',
  'invoke',
  'events',
  'assets',
  'index.html',
  '.map',
];

const joined = fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }).map((a) => a.join(''));
const rawBytes = fc.uint8Array({ minLength: 1, maxLength: 48 }).map((b) => Buffer.from(b));

const queryString = fc
  .array(
    fc.tuple(
      fc.oneof(joined, fc.string({ maxLength: 12 })),
      fc.oneof(joined, fc.string({ maxLength: 40 }), fc.constantFrom('0', '-1', '1e309', 'NaN', '99999999999999999999', 'mainnet', 'x'.repeat(5000))),
      fc.boolean(),
    ),
    { maxLength: 6 },
  )
  // Values go out percent-encoded or raw (raw spaces and non-ASCII must be refused cleanly too).
  .map((pairs) => pairs.map(([k, v, encode]) => `${encodeURIComponent(k)}=${encode ? encodeURIComponent(v) : v}`).join('&'));

const BASES = [
  '/',
  '/v1/teleporter/messages',
  '/v1/icm/messages',
  '/v1/teleporter/addresses/0xabc/messages',
  '/_local/info',
  '/api/invoke/getAppInfo',
  '/api/events',
  '/assets/index-abc123.js',
];

/** Request targets: known killers, joined pieces, raw bytes, and known paths with hostile query strings. */
export const hostileTarget: fc.Arbitrary<string | Buffer> = fc.oneof(
  fc.constantFrom(...KNOWN_HOSTILE_TARGETS),
  joined.map((s) => '/' + s),
  joined,
  rawBytes.map((b) => Buffer.concat([Buffer.from('/'), b])),
  fc.tuple(fc.constantFrom(...BASES), queryString).map(([base, q]) => `${base}?${q}`),
);

const headerName = fc.oneof(
  fc.constantFrom(
    'x-service-api-key',
    'authorization',
    'origin',
    'host',
    'content-type',
    'accept',
    'cookie',
    'upgrade',
    'expect',
    'x-forwarded-for',
    'range',
    'if-none-match',
  ),
  fc.string({ minLength: 1, maxLength: 20 }),
);
const headerValue = fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('Bearer x', 'null', 'http://evil.example', 'bytes=0-1,5-', '*', 'a'.repeat(20_000)));

/** Header lines: well-formed names with hostile values, invalid tokens, and raw bytes. */
export const hostileHeaders: fc.Arbitrary<(string | Buffer)[]> = fc.array(
  fc.oneof(
    fc.tuple(headerName, headerValue).map(([n, v]) => `${n}: ${v}`),
    rawBytes,
    fc.constantFrom(
      'Content-Length: -1',
      'Content-Length: abc',
      'Transfer-Encoding: chunked',
      'Transfer-Encoding: gzip, chunked',
      'Host: evil.example',
      'Expect: 100-continue',
      'Upgrade: websocket',
      'Connection: upgrade',
      ' folded: line',
    ),
  ),
  { maxLength: 4 },
);

/** Requests tried per server on every run: enough shapes to matter, a few seconds in all. */
export const FUZZ_RUNS = 300;

/**
 * Runs the property against a server on `port`: any reply's refusal (4xx/5xx) is JSON that
 * `isErrorBody` accepts, and `healthy()` (an ordinary request) succeeds after each one.
 */
export async function fuzzServer(port: number, isErrorBody: (body: unknown, status: number) => boolean, healthy: () => Promise<boolean>): Promise<void> {
  await fc.assert(
    fc.asyncProperty(hostileTarget, hostileHeaders, async (target, headers) => {
      const reply = await sendRaw(port, rawGet(target, port, headers));
      expectAnswered(reply, isErrorBody);
      expect(await healthy()).toBe(true);
    }),
    { numRuns: FUZZ_RUNS },
  );
}

/** Each of the known killers (KNOWN_HOSTILE_TARGETS) is refused with a JSON error body that `isErrorBody` accepts, and `healthy()` succeeds after each. */
export async function expectKnownKillersRefused(
  port: number,
  isErrorBody: (body: unknown, status: number) => boolean,
  healthy: () => Promise<boolean>,
): Promise<void> {
  for (const target of KNOWN_HOSTILE_TARGETS) {
    const reply = await sendRaw(port, rawGet(target, port));
    expectAnswered(reply, isErrorBody);
    expect(reply.status, String(target).slice(0, 40)).toBeGreaterThanOrEqual(400);
    expect(await healthy()).toBe(true);
  }
}

/** A status came back, and a refusal carries the JSON error body. */
export function expectAnswered(reply: RawReply, isErrorBody: (body: unknown, status: number) => boolean): void {
  expect(reply.status, `no HTTP status in ${JSON.stringify(reply.head.slice(0, 200))}`).toBeGreaterThanOrEqual(100);
  if (reply.status < 400) return;
  let body: unknown;
  try {
    body = JSON.parse(reply.body);
  } catch {
    throw new Error(`status ${reply.status} without a JSON body: ${JSON.stringify(reply.head + '\n\n' + reply.body.slice(0, 200))}`);
  }
  expect(isErrorBody(body, reply.status), JSON.stringify(body)).toBe(true);
}
