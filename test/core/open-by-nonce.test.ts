/**
 * CachedMessages.openByNonce on a real store: the tracked messages of one route with one nonce, each with
 * its messenger contract (nonces repeat across messenger versions), through an index of their own: a
 * carrier's names are looked up one by one, not every tracked message read into memory each cycle.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadSqlite } from '../../src/sqlite';
import { DATABASE_FILE } from '../../src/core/store/database';
import { join } from 'node:path';
import { BEAM, C_CHAIN, engineRig, msg, randomAddress, tempDir, type EngineRig } from './helpers';

const V1 = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf';
const V2 = '0x' + 'ab'.repeat(20);

describe('openByNonce', () => {
  let tmp: ReturnType<typeof tempDir> | null = null;
  let rig: EngineRig | null = null;
  afterEach(() => {
    rig?.close();
    tmp?.cleanup();
    rig = tmp = null;
  });

  it('finds the tracked messages of a route with a nonce, by index, whichever messenger sent them', () => {
    tmp = tempDir();
    rig = engineRig(tmp.dir);
    const a = randomAddress();
    rig.watch(a);
    const sent = (nonce: string, contract: string, o: { status?: string; receiptDelivered?: boolean; reverse?: boolean } = {}) =>
      msg({
        from: a,
        status: o.status ?? 'delivered',
        receiptDelivered: o.receiptDelivered ?? false,
        extra: {
          messageNonce: nonce,
          teleporterContractAddress: contract,
          ...(o.reverse ? { sourceBlockchainId: BEAM, destinationBlockchainId: C_CHAIN } : {}),
        },
      });
    const [v1, v2, pending, receipted, reversed, other] = [
      sent('7', V1),
      sent('7', V2),
      sent('8', V1, { status: 'pending' }),
      sent('9', V1, { receiptDelivered: true }),
      sent('7', V1, { reverse: true }),
      sent('70', V1),
    ];
    rig.engine.observe([v1, v2, pending, receipted, reversed, other], 'mainnet');

    const seven = rig.store.messages.openByNonce(C_CHAIN, BEAM, '7');
    expect(seven.map((o) => [o.messageId, o.contract.toLowerCase(), o.pending]).sort()).toEqual(
      [
        [v1.messageId, V1.toLowerCase(), false],
        [v2.messageId, V2, false],
      ].sort(),
    );
    expect(rig.store.messages.openByNonce(C_CHAIN, BEAM, '8').map((o) => o.pending)).toEqual([true]);
    // Its receipt back: no longer tracked, so nothing a carrier could name.
    expect(rig.store.messages.openByNonce(C_CHAIN, BEAM, '9')).toEqual([]);
    expect(rig.store.messages.openByNonce(BEAM, C_CHAIN, '7').map((o) => o.messageId)).toEqual([reversed.messageId]);

    // The query plan reads the index, not every tracked row.
    const db = new (loadSqlite().DatabaseSync)(join(tmp.dir, DATABASE_FILE), { readOnly: true });
    try {
      const plan = db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT message_id FROM messages
           WHERE tracked = 1 AND source_chain = ? AND destination_chain = ? AND CAST(json_extract(raw, '$.messageNonce') AS TEXT) = ? AND source = ?`,
        )
        .all(C_CHAIN, BEAM, '7', '') as { detail: string }[];
      expect(plan.map((p) => p.detail).join(' ')).toContain('messages_open_nonce');
    } finally {
      db.close();
    }
  });
});
