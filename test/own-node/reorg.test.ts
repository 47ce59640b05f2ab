/**
 * Reorgs on real chains (anvil_reorg): a send undone by a reorg takes its message away, a delivery
 * undone puts the message back to pending, and a reorg shallower than the confirmation depth is
 * never seen at all. Each rollback is said in the log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/local-service/index';
import { startLocalService } from '../../src/local-service/index';
import { waitFor } from '../support/wait-for';
import { startTestChains, type TestChain } from './chains';
import { sendMessage, TestRelayer } from './relayer';
import { chainConfig, recordWhen } from './rig';

let a: TestChain, b: TestChain;
beforeAll(async () => {
  [a, b] = await startTestChains(31401, 31402);
});
afterAll(async () => {
  await Promise.all([a?.node.stop(), b?.node.stop()]);
});

async function withService(confirmations: number, fn: (s: RunningService, logs: string[]) => Promise<void>): Promise<void> {
  const logs: string[] = [];
  const s = await startLocalService({
    rate: 0,
    warmStore: false,
    log: (l) => logs.push(l),
    ownNodes: { chains: [chainConfig(a), chainConfig(b)], confirmations, pollIntervalMs: 100 },
  });
  try {
    await fn(s, logs);
  } finally {
    await s.close();
  }
}

/** Replaces the newest blocks of a chain from `block` on with empty ones (and one more on top). */
async function reorgFrom(c: TestChain, block: bigint): Promise<void> {
  const head = await c.client.getBlockNumber();
  await c.client.request({ method: 'anvil_reorg' as never, params: [Number(head - block + 1n), []] as never });
  await c.client.request({ method: 'anvil_mine' as never, params: ['0x1'] as never });
}

const reorgsOf = (s: RunningService, c: TestChain) => s.ownNodes()!.find((n) => n.blockchainId === c.blockchainId)!.reorgs;

describe('own nodes: reorgs', () => {
  it('takes away a message whose send was undone, and says so', async () => {
    await withService(0, async (s, logs) => {
      const sent = await sendMessage(a, b);
      await recordWhen(s, sent.messageId, () => true);
      await reorgFrom(a, sent.block);
      await waitFor(() => s.store.get(sent.messageId.slice(2)) === undefined, 20_000, 'the undone message to go');
      expect(reorgsOf(s, a)).toBe(1);
      expect(logs.some((l) => l.startsWith(`reorg on ${a.blockchainId}`) && l.includes('1 message(s) rolled back'))).toBe(true);
    });
  });

  it('puts a message back to pending when its delivery was undone', async () => {
    await withService(0, async (s) => {
      const sent = await sendMessage(a, b);
      const relayer = new TestRelayer([a, b]);
      await relayer.deliverAll();
      await recordWhen(s, sent.messageId, (r) => r.status === 'delivered');
      const receipt = await b.client.getTransactionReceipt({ hash: relayer.delivered.get(sent.messageId)! });
      await reorgFrom(b, receipt.blockNumber);
      const back = await recordWhen(s, sent.messageId, (r) => r.status === 'pending');
      expect(back.destinationTransaction).toBeUndefined();
      expect(reorgsOf(s, b)).toBe(1);
    });
  });

  it('never sees a reorg shallower than the confirmation depth', async () => {
    await withService(3, async (s) => {
      const undone = await sendMessage(a, b);
      await reorgFrom(a, undone.block); // within 3 blocks of the head: never read
      const kept = await sendMessage(a, b);
      await a.client.request({ method: 'anvil_mine' as never, params: ['0x3'] as never });
      const r = await recordWhen(s, kept.messageId, () => true);
      // The messenger's nonce went back with the reorg, so the kept message has the undone one's ID: only its transaction tells them apart.
      expect(kept.messageId).toBe(undone.messageId);
      expect((r.sourceTransaction as { txHash: string }).txHash).toBe(kept.txHash);
      expect(kept.txHash).not.toBe(undone.txHash);
      expect(reorgsOf(s, a)).toBe(0);
    });
  });
});
