/**
 * Issue 41: an own-nodes store written before block times were checked holds a record whose position
 * (seconds × 1e6) is past 2^53, so that no read of its position survives, and the event it came from,
 * with a far-future block time the lists would go on serving. When the service opens the store again
 * the record and the event go; the message is rebuilt from what is left; the lists answer with no time
 * from the future.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/sqlite';
import type { RunningService } from '../../src/local-service/index';
import { startTestChains, type TestChain } from './chains';
import { sendMessage, TestRelayer } from './relayer';
import { recordWhen, startOwnNodeService } from './rig';

const LYING_TIMESTAMP = 1_795_897_196_118;
const dir = mkdtempSync(join(tmpdir(), 'tw-own-node-repair-'));
let a: TestChain, b: TestChain;
let service: RunningService | undefined;

beforeAll(async () => {
  [a, b] = await startTestChains(32701, 32702);
});
afterAll(async () => {
  await service?.close();
  await Promise.all([a?.node.stop(), b?.node.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

describe('own nodes: a store written before block times were checked', () => {
  it('lets the unreadable record and its far-future event go at open, rebuilds the message, and the lists answer', async () => {
    const dbPath = join(dir, 'own-nodes.sqlite');
    service = await startOwnNodeService([a, b], {}, dbPath);
    const relayer = new TestRelayer([a, b]);
    const poisoned = (await sendMessage(a, b)).messageId;
    const fine = (await sendMessage(b, a)).messageId;
    await relayer.deliverAll();
    const before = await recordWhen(service, poisoned, (r) => r.status === 'delivered');
    await recordWhen(service, fine, (r) => r.status === 'delivered');
    await service.close();
    service = undefined;

    // What an earlier version stored when the source block claimed a time in milliseconds.
    const id = poisoned.slice(2).toLowerCase();
    const db = new Database(dbPath);
    db.prepare("UPDATE chain_events SET facts = json_set(facts, '$.tx.timestamp', ?) WHERE message_id = ? AND json_extract(facts, '$.kind') = 'sent'").run(
      LYING_TIMESTAMP,
      id,
    );
    const raw = JSON.stringify({ ...before, sourceTransaction: { ...(before.sourceTransaction as object), timestamp: LYING_TIMESTAMP } });
    db.prepare('UPDATE messages SET pos = ?, raw = ? WHERE message_id = ?').run(BigInt(LYING_TIMESTAMP) * 1_000_000n, raw, id);
    db.prepare("DELETE FROM meta WHERE key = 'blockTimesChecked'").run();
    expect(() => db.prepare('SELECT pos FROM messages').all()).toThrow(/too large/);
    db.close();

    service = await startOwnNodeService([a, b], {}, dbPath);
    const res = await fetch(`${service.url}/v1/teleporter/messages?network=fuji&pageSize=100`);
    expect(res.status).toBe(200);
    const listed = ((await res.json()) as { messages: { messageId: string; sourceTransaction?: { timestamp: number } }[] }).messages;
    expect(listed.map((m) => m.messageId)).toContain(fine.slice(2).toLowerCase());
    for (const m of listed) expect(m.sourceTransaction?.timestamp ?? 0).toBeLessThan(Date.now() / 1000 + 86_400);
    // Rebuilt from its delivery alone: the send's lying time is gone.
    const rebuilt = await recordWhen(service, poisoned, () => true);
    expect(rebuilt.status).toBe('delivered_source_not_indexed');
    expect(rebuilt.sourceTransaction).toBeUndefined();
  });
});
