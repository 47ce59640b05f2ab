/** Keyset paging: exactly-once walks under concurrent inserts and updates (property), and token checks. */
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { startLocalService } from '../../src/local-service/index';
import { get, query, serve, sortTime, walk, type Page } from './helpers';

type Rec = Record<string, unknown>;

/** A copy of `base` as a new message sent at `ts` (seconds). */
function newMessage(base: Rec, n: number, ts: number): Rec {
  const messageId = 'f' + n.toString(16).padStart(63, '0');
  const copy = structuredClone(base);
  copy.messageId = messageId;
  if (copy.sourceTransaction) (copy.sourceTransaction as { timestamp: number }).timestamp = ts;
  else (copy.destinationTransaction as { timestamp: number }).timestamp = ts;
  return copy;
}

describe('walking every page', () => {
  it('returns each message that existed at the start exactly once, whatever is inserted or updated meanwhile (property)', async () => {
    const clock = new ManualClock();
    const s = await serve({ clock, preload: 600, seed: 3 });
    const hot = s.simulator.hotAddresses[0]!;
    const filters: [string, Record<string, string>][] = [
      ['/v1/teleporter/messages', {}],
      ['/v1/teleporter/messages', { network: 'mainnet' }],
      ['/v1/teleporter/messages', { sourceBlockchainId: '43114' }],
      ['/v1/teleporter/messages', { from: hot }],
      ['/v1/icm/messages', { blockchainId: '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5', network: 'mainnet' }],
      [`/v1/teleporter/addresses/${hot}/messages`, {}],
    ];
    let inserted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...filters),
        fc.integer({ min: 4, max: 60 }),
        // Per page: messages to insert (each with a time offset from "now" in seconds, negative = in the past) and simulator steps.
        fc.array(
          fc.record({ inserts: fc.array(fc.integer({ min: -4000, max: 5 }), { maxLength: 4 }), sends: fc.nat({ max: 3 }), stepMs: fc.nat({ max: 90_000 }) }),
          { minLength: 1, maxLength: 40 },
        ),
        async ([path, f], pageSize, perPage) => {
          const base = s.url + path;
          const before = (await walk(base, { ...f, pageSize: 100 })).messages.map((m) => m.messageId as string);
          const seen: Rec[] = [];
          let token: string | undefined;
          let i = 0;
          do {
            const r = await get(base + query({ ...f, pageSize, pageToken: token }));
            expect(r.status).toBe(200);
            const page = r.json as Page;
            expect(page.messages.length).toBeLessThanOrEqual(pageSize);
            seen.push(...page.messages);
            token = page.nextPageToken;
            // Meanwhile: new messages now and in the past, live traffic, deliveries and receipts (updates).
            // (Only while the listed actions last: inserting behind the cursor forever would make the walk endless.)
            const act = perPage[i++] ?? { inserts: [], sends: 0, stepMs: 0 };
            const now = Math.floor(clock.now() / 1000);
            s.store.upsertMany(act.inserts.map((dt) => newMessage(seen[0] ?? {}, ++inserted, now + dt)).filter((m) => m.from !== undefined));
            for (let k = 0; k < act.sends; k++) s.simulator.send({ from: hot });
            s.simulator.step(act.stepMs);
          } while (token);
          const ids = seen.map((m) => m.messageId as string);
          expect(new Set(ids).size).toBe(ids.length); // never twice
          const got = new Set(ids);
          for (const id of before) expect(got.has(id)).toBe(true); // never missed
          for (let k = 1; k < seen.length; k++) expect(sortTime(seen[k - 1]!)).toBeGreaterThanOrEqual(sortTime(seen[k]!));
        },
      ),
      { numRuns: 30 },
    );
    expect(inserted).toBeGreaterThan(0);
  });

  it('lets pageSize change between pages', async () => {
    const s = await serve({ clock: new ManualClock(), preload: 50 });
    const first = (await get(`${s.url}/v1/teleporter/messages?pageSize=5`)).json as Page;
    const second = (await get(`${s.url}/v1/teleporter/messages${query({ pageSize: 20, pageToken: first.nextPageToken })}`)).json as Page;
    const all = (await walk(`${s.url}/v1/teleporter/messages`, { pageSize: 100 })).messages;
    expect([...first.messages, ...second.messages].map((m) => m.messageId)).toEqual(all.slice(0, 25).map((m) => m.messageId));
  });

  it('omits nextPageToken on the last page and on an empty result', async () => {
    const s = await serve({ clock: new ManualClock(), preload: 30 });
    const n = s.store.count();
    const exact = (await get(`${s.url}/v1/teleporter/messages?pageSize=${n}`)).json as Page;
    expect(exact.messages).toHaveLength(n);
    expect(exact).not.toHaveProperty('nextPageToken');
    const empty = await get(`${s.url}/v1/teleporter/messages?from=0x000000000000000000000000000000000000dEaD`);
    expect(empty.text).toBe('{"messages":[]}');
  });

  it('treats an empty pageToken as the first page', async () => {
    const s = await serve({ clock: new ManualClock(), preload: 30 });
    const a = await get(`${s.url}/v1/teleporter/messages?pageSize=3`);
    const b = await get(`${s.url}/v1/teleporter/messages?pageSize=3&pageToken=`);
    expect(b.text).toBe(a.text);
  });
});

describe('page tokens', () => {
  const tokenOf = async (url: string) => ((await get(url)).json as Page).nextPageToken!;
  const invalid = { message: ['pageToken is invalid: it was not issued by this service or has been altered.'], statusCode: 400, error: 'Bad Request' };
  const foreign = {
    message: ['pageToken belongs to a different query: the operation, address or filters changed since it was issued. Start again without pageToken.'],
    statusCode: 400,
    error: 'Bad Request',
  };

  it('rejects an altered token', async () => {
    const s = await serve({ clock: new ManualClock(), preload: 40 });
    const token = await tokenOf(`${s.url}/v1/teleporter/messages?pageSize=5`);
    const [body, mac] = token.split('.') as [string, string];
    // Move the cursor by re-encoding the payload: the MAC no longer matches.
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as { p: number };
    payload.p += 1;
    const moved = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`;
    const flipped = `${body}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`;
    for (const t of [moved, flipped, `${body}.`, `${token}.x`]) {
      const r = await get(`${s.url}/v1/teleporter/messages${query({ pageSize: 5, pageToken: t })}`);
      expect(r.status).toBe(400);
      expect((r.json as { message: string[] }).message[0]).toMatch(/^pageToken is (invalid|malformed)/);
    }
    expect((await get(`${s.url}/v1/teleporter/messages${query({ pageSize: 5, pageToken: moved })}`)).json).toEqual(invalid);
  });

  it('rejects a token issued by another service (another database secret)', async () => {
    const a = await serve({ clock: new ManualClock(), preload: 40 });
    const b = await serve({ clock: new ManualClock(), preload: 40 });
    const token = await tokenOf(`${a.url}/v1/teleporter/messages?pageSize=5`);
    expect((await get(`${b.url}/v1/teleporter/messages${query({ pageSize: 5, pageToken: token })}`)).json).toEqual(invalid);
  });

  it('rejects a token used with other filters or the other operation, but accepts it on the /v1/icm twin', async () => {
    const s = await serve({ clock: new ManualClock(), preload: 200 });
    const hot = s.simulator.hotAddresses[0]!;
    const listToken = await tokenOf(`${s.url}/v1/teleporter/messages?pageSize=2&network=mainnet`);
    const addressToken = await tokenOf(`${s.url}/v1/teleporter/addresses/${hot}/messages?pageSize=2`);
    const use = (path: string, params: Record<string, string>, pageToken: string) => get(`${s.url}${path}${query({ ...params, pageSize: 2, pageToken })}`);
    expect((await use('/v1/teleporter/messages', {}, listToken)).json).toEqual(foreign);
    expect((await use('/v1/teleporter/messages', { network: 'fuji' }, listToken)).json).toEqual(foreign);
    expect((await use('/v1/teleporter/messages', { network: 'mainnet', from: hot }, listToken)).json).toEqual(foreign);
    expect((await use(`/v1/teleporter/addresses/${hot}/messages`, { network: 'mainnet' }, listToken)).json).toEqual(foreign);
    expect((await use('/v1/teleporter/messages', {}, addressToken)).json).toEqual(foreign);
    expect((await use(`/v1/teleporter/addresses/${s.simulator.hotAddresses[1]}/messages`, {}, addressToken)).json).toEqual(foreign);
    // Same operation and filters under the other prefix, and the address in another letter case: the same query.
    expect((await use('/v1/icm/messages', { network: 'mainnet' }, listToken)).status).toBe(200);
    expect((await use(`/v1/icm/addresses/${hot.toLowerCase()}/messages`, {}, addressToken)).status).toBe(200);
  });

  it('stays valid after a restart on the same database file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'service-restart-'));
    try {
      const dbPath = join(dir, 'db.sqlite');
      const first = await startLocalService({ dbPath, clock: new ManualClock(), rate: 0, preload: 40 });
      const page1 = (await get(`${first.url}/v1/teleporter/messages?pageSize=5`)).json as Page;
      const expected = (await get(`${first.url}/v1/teleporter/messages${query({ pageSize: 5, pageToken: page1.nextPageToken })}`)).text;
      await first.close();
      const second = await startLocalService({ dbPath, clock: new ManualClock(), rate: 0 });
      const again = await get(`${second.url}/v1/teleporter/messages${query({ pageSize: 5, pageToken: page1.nextPageToken })}`);
      await second.close();
      expect(again.status).toBe(200);
      expect(again.text).toBe(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
