/**
 * Issue 41: what a user's database holds from before the boundary checks must not crash reads. A row
 * stored from a millisecond timestamp (its sort key past 2^53: node:sqlite throws "Value is too large to
 * be represented as a JavaScript number" on every read that meets it) and a head cursor moved into the
 * future by it are let go of when the database opens (migrations.ts' boundary repair); the cache search,
 * Charts and polls answer, and the good rows stay.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { BOUNDARY_REPAIR_VERSION } from '../../../src/core/store/migrations';
import { Database } from '../../../src/sqlite';
import type { PollStatus } from '../../../src/shared/contract';
import { customSourceCore } from '../custom-source-core';
import { parseMessage, type TeleporterMessage } from '../../../src/shared/messages';
import { apiRecord, engineRig, randomAddress, tempDir } from '../helpers';
import { JumpClock } from '../http-helpers';
import { scriptedDataApi } from '../scripted-data-api';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('a database written before the boundary checks', () => {
  it('is repaired when it opens: the unreadable rows and a future head cursor go, reads and polls answer', async () => {
    const tmp = tempDir();
    cleanups.push(() => tmp.cleanup());
    const clock = new JumpClock();
    const watched = randomAddress();
    const nowS = Math.floor(clock.now() / 1000);
    // A good message, stored as the engine stores it.
    const rig = engineRig(tmp.dir, clock);
    rig.watch(watched);
    const good = apiRecord({ from: watched, status: 'pending', ts: nowS - 60 });
    rig.engine.observe([parseMessage(good) as TeleporterMessage], 'mainnet');
    rig.close();

    // What an earlier version wrote for a record whose time was in milliseconds.
    const api = await scriptedDataApi();
    cleanups.push(() => api.close());
    const ms = clock.now() - 30_000;
    const bad = apiRecord({ from: watched, status: 'pending', ts: ms });
    const db = new Database(join(tmp.dir, 'monitor.sqlite'));
    const rowid = BigInt(ms) * 1_000_000n;
    db.prepare(
      `INSERT INTO messages (rowid, message_id, network, status, receipt_delivered, from_addr, to_addr, source_chain, destination_chain,
         source_ts, destination_ts, raw, first_seen_at, last_seen_at, tracked, pending_since, stuck_fired)
       VALUES (?, ?, 'mainnet', 'pending', 0, ?, ?, '', '', ?, NULL, ?, ?, ?, 1, ?, 0)`,
    ).run(rowid, bad.messageId, watched, bad.to, ms, JSON.stringify(bad), clock.now(), clock.now(), ms * 1000);
    db.prepare('INSERT INTO messages_fts (rowid, text) VALUES (?, ?)').run(rowid, bad.messageId);
    db.prepare('INSERT INTO messages_prefix (rowid, text) VALUES (?, ?)').run(rowid, bad.messageId);
    db.prepare('INSERT INTO message_watchers (message_id, watcher, added_at, baseline) VALUES (?, ?, ?, 0)').run(bad.messageId, watched, clock.now());
    db.prepare('INSERT INTO poll_state (key, json) VALUES (?, ?)').run(`head:${api.url}:mainnet`, JSON.stringify({ ts: ms, at: clock.now() }));
    // The symptom: any read that meets the row fails.
    expect(() => db.prepare('SELECT rowid FROM messages').all()).toThrow(/too large/);
    db.pragma(`user_version = ${BOUNDARY_REPAIR_VERSION}`);
    // What the migrations after the repair add, undone: the database as that version left it.
    db.exec(
      'ALTER TABLE watches DROP COLUMN history_cut_at; ALTER TABLE feeds DROP COLUMN history_cut_at; DROP INDEX messages_open_nonce; DROP TABLE relayer_metrics_urls;',
    );
    db.close();

    api.records.push({ body: good, sortTs: nowS - 60, owners: [watched.toLowerCase()] });
    const r = await customSourceCore(cleanups, { dataDir: tmp.dir, api, clock });
    const found = await r.call<{ items: { messageId: string }[] }>('searchCache', { text: '' });
    expect(found.items.map((i) => i.messageId)).toEqual([good.messageId]);
    expect((await r.call<{ items: unknown[] }>('searchCache', { text: (bad.messageId as string).slice(0, 10) })).items).toEqual([]);
    await r.call('getStats', { hours: 24 });
    expect(await r.call('getMessage', { messageId: bad.messageId })).toBeNull();
    const status = await r.poll();
    expect(status.lastError).toBeNull();
    expect((await r.call<PollStatus>('getPollStatus')).tracked).toBe(1);
    await r.core.close();
    const after = new Database(join(tmp.dir, 'monitor.sqlite'));
    expect(
      after
        .prepare('SELECT count(*) FROM poll_state WHERE json_extract(json, ?) > ?')
        .pluck()
        .get('$.ts', nowS + 86_400),
    ).toBe(0);
    after.close();
  });
});
