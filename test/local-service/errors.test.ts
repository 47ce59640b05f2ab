/** Every 400 / 404 / 405 case with its exact JSON body, over real HTTP. */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import type { SimulatedService } from '../../src/local-service/index';
import { get, serve } from './helpers';

let s: SimulatedService;

const bad = (message: string[]) => ({ message, statusCode: 400, error: 'Bad Request' });
const C_CHAIN = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';

describe('400 Bad Request names the parameter', () => {
  const cases: [string, string, string[]][] = [
    ['pageSize above 100', 'pageSize=101', ['pageSize must not be greater than 100.']],
    ['pageSize below 1', 'pageSize=0', ['pageSize must not be less than 1.']],
    ['pageSize negative', 'pageSize=-5', ['pageSize must not be less than 1.']],
    ['pageSize not a number', 'pageSize=ten', ['pageSize must be a whole number.']],
    ['pageSize fractional', 'pageSize=2.5', ['pageSize must be a whole number.']],
    ['pageSize given twice', 'pageSize=2&pageSize=3', ['pageSize must be given at most once.']],
    ['network unknown', 'network=devnet', ['network must be one of mainnet, fuji, testnet.']],
    ['network empty', 'network=', ['network must not be empty (leave it out to not filter by it).']],
    ['from not hex', 'from=0xzz', ['from must be 0x followed by 40 hex digits (got 2).']],
    ['from without 0x', 'from=abcdefabcdefabcdefabcdefabcdefabcdefabcd', ['from must start with 0x.']],
    [
      'to with a wrong checksum',
      'to=0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD',
      ['to has an invalid EIP-55 checksum (letter case is wrong; did you mean 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed?).'],
    ],
    [
      'sourceBlockchainId with a broken checksum',
      `sourceBlockchainId=${C_CHAIN.slice(0, -1)}6`,
      [
        `sourceBlockchainId (blockchain ID) "${C_CHAIN.slice(0, -1)}6" fails its cb58 checksum (a character is wrong or missing). Use a cb58 blockchain ID or a decimal EVM chain ID.`,
      ],
    ],
    [
      'destinationBlockchainId with a non-base58 character',
      'destinationBlockchainId=0OIl',
      [
        'destinationBlockchainId (blockchain ID) must be a cb58 (base58) string; "0OIl" has characters outside the base58 alphabet. Use a cb58 blockchain ID or a decimal EVM chain ID.',
      ],
    ],
    [
      'destinationBlockchainId EVM chain ID with a leading zero',
      'destinationBlockchainId=043114',
      ['destinationBlockchainId (EVM chain ID) must be a positive whole number in decimal, like 43114.'],
    ],
    ['blockchainId not cb58', 'blockchainId=abcdef', ['blockchainId "abcdef" fails its cb58 checksum (a character is wrong or missing).']],
    [
      'blockchainId given an EVM chain ID',
      'blockchainId=43114',
      ['blockchainId must be a cb58 blockchain ID; "43114" looks like an EVM chain ID, which only sourceBlockchainId and destinationBlockchainId accept.'],
    ],
    ['pageToken garbage', 'pageToken=abc', ['pageToken is malformed: pass the nextPageToken of a previous response unchanged.']],
    ['pageToken too long', `pageToken=${'a'.repeat(5000)}`, ['pageToken is malformed: pass the nextPageToken of a previous response unchanged.']],
    [
      'several problems at once, all listed',
      'pageSize=500&network=x&from=1',
      ['pageSize must not be greater than 100.', 'network must be one of mainnet, fuji, testnet.', 'from must start with 0x.'],
    ],
  ];

  it.each(cases)('%s', async (_name, q, message) => {
    s = await serve({ clock: new ManualClock() });
    const r = await get(`${s.url}/v1/teleporter/messages?${q}`);
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(r.json).toEqual(bad(message));
    expect(r.headers.get('ratelimit-limit')).not.toBeNull();
  });

  it('rejects a bad path address on the address operation', async () => {
    s = await serve({ clock: new ManualClock() });
    const r = await get(`${s.url}/v1/teleporter/addresses/0x1234/messages`);
    expect(r.status).toBe(400);
    expect(r.json).toEqual(bad(['address must be 0x followed by 40 hex digits (got 4).']));
    const broken = await get(`${s.url}/v1/teleporter/addresses/%E0%A4%A/messages`);
    expect(broken.status).toBe(400);
    expect(broken.json).toEqual(bad(['address must start with 0x.']));
    const pageSize = await get(`${s.url}/v1/icm/addresses/0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed/messages?pageSize=0`);
    expect(pageSize.json).toEqual(bad(['pageSize must not be less than 1.']));
  });
});

describe('unknown paths and methods', () => {
  it.each([
    '/',
    '/v1',
    '/v1/teleporter',
    '/v2/teleporter/messages',
    '/v1/teleporter/messages/extra/more',
    '/v1/teleporter/addresses/0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '/_local/nothing',
  ])('404 for %s in the error shape', async (path) => {
    s = await serve({ clock: new ManualClock() });
    const r = await get(s.url + path);
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ message: `Cannot GET ${path}`, statusCode: 404, error: 'Not Found' });
  });

  it('405 with Allow for a non-GET method on an API path', async () => {
    s = await serve({ clock: new ManualClock() });
    const res = await fetch(`${s.url}/v1/teleporter/messages`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(await res.json()).toEqual({
      message: 'Method POST is not allowed on /v1/teleporter/messages; use GET.',
      statusCode: 405,
      error: 'Method Not Allowed',
    });
  });
});
