/**
 * Reorgs that undo a delivery or a receipt, followed through the core's engine over real chains
 * (anvil_reorg under the test messenger): from your own nodes a move back is a fact. Activity gets
 * `receipt_undone` / `delivery_undone`, the log says "… undone by a reorg on <chain name>", `stuck`
 * applies again, and the re-delivery fires again, exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorCore } from '../../src/core/monitor-core';
import { systemClock, type Clock } from '../../src/shared/clock';
import type { Transition, TransitionPage } from '../../src/shared/contract';
import { tempDir } from '../core/helpers';
import { waitFor } from '../support/wait-for';
import { startTestChains, type TestChain } from './chains';
import { sendMessage, sendSpecifiedReceipts, TestRelayer } from './relayer';
import { chainConfig, coreSpawningService } from './rig';

let a: TestChain, b: TestChain;
let core: MonitorCore;
const tmp = tempDir('tw-own-reorg-core-');
const lines: string[] = [];
const log = (msg: string) => lines.push(msg);
/** The core's clock: real time plus an offset the test moves on (to make a message old enough for `stuck`). */
let offsetMs = 0;
const clock: Clock = { ...systemClock, now: () => Date.now() + offsetMs };

beforeAll(async () => {
  [a, b] = await startTestChains(32301, 32302);
  core = await coreSpawningService(tmp.dir, { clock, logger: { debug: log, info: log, warn: log, error: log } });
});
afterAll(async () => {
  await core?.close();
  await Promise.all([a?.node.stop(), b?.node.stop()]);
  tmp.cleanup();
});

/** Replaces the newest blocks of a chain from `block` on with empty ones (and one more on top). */
async function reorgFrom(c: TestChain, block: bigint): Promise<void> {
  const head = await c.client.getBlockNumber();
  await c.client.request({ method: 'anvil_reorg' as never, params: [Number(head - block + 1n), []] as never });
  await c.client.request({ method: 'anvil_mine' as never, params: ['0x1'] as never });
}

describe('own nodes: a reorg that undoes a delivery or a receipt, through the engine', () => {
  it('logs the undo, follows the message again, fires stuck again and the re-delivery once', async () => {
    const saved = await core.invoke('updateSettings', {
      network: 'fuji',
      stuckThresholdMinutes: 5,
      dataSource: {
        kind: 'ownNodes',
        ownNodes: { chains: [chainConfig(a, { name: 'Alpha' }), chainConfig(b, { name: 'Beta' })], confirmations: 0, pollIntervalMs: 100 },
      },
    });
    expect(saved.ok).toBe(true);
    await core.start();
    const sender = a.wallet('sender').account.address;
    expect((await core.invoke('addWatch', { address: sender, network: 'fuji' })).ok).toBe(true);

    const sent = await sendMessage(a, b);
    const id = sent.messageId.slice(2);
    const log = async (): Promise<Transition[]> => {
      await core.invoke('pollNow', undefined);
      const r = await core.invoke('listTransitions', { messageId: id });
      return r.ok ? (r.value as TransitionPage).items : [];
    };
    const count = (ts: Transition[], kind: string) => ts.filter((t) => t.kind === kind).length;
    const until = (what: string, ok: (ts: Transition[]) => boolean) => waitFor(async () => ((ts) => (ok(ts) ? ts : undefined))(await log()), 30_000, what);

    await until('new', (ts) => count(ts, 'new') === 1);
    const relayer = new TestRelayer([a, b]);
    await relayer.deliverAll();
    const delivery = await until('left_pending', (ts) => count(ts, 'left_pending') === 1);
    expect(delivery.find((t) => t.kind === 'left_pending')!.toStatus).toBe('delivered');

    // The receipt comes back to Alpha, then a reorg on Alpha takes it away.
    const carrier = await sendSpecifiedReceipts(b, a, [sent.messageId]);
    await relayer.deliverAll();
    await until('receipt_delivered', (ts) => count(ts, 'receipt_delivered') === 1);
    const receiptBlock = (await a.client.getTransactionReceipt({ hash: relayer.delivered.get(carrier.messageId)! })).blockNumber;
    await reorgFrom(a, receiptBlock);
    const afterReceiptUndo = await until('receipt_undone', (ts) => count(ts, 'receipt_undone') === 1);
    expect(afterReceiptUndo.find((t) => t.kind === 'receipt_undone')).toMatchObject({ fromStatus: 'delivered', toStatus: 'delivered' });
    expect(lines.some((l) => l.includes(`message ${id}: receipt undone by a reorg on Alpha`))).toBe(true);

    // A reorg on Beta takes the delivery away: the message is pending again, as a fact.
    const deliveryBlock = (await b.client.getTransactionReceipt({ hash: relayer.delivered.get(sent.messageId)! })).blockNumber;
    await reorgFrom(b, deliveryBlock);
    const undone = await until('delivery_undone', (ts) => count(ts, 'delivery_undone') === 1);
    expect(undone.find((t) => t.kind === 'delivery_undone')).toMatchObject({ fromStatus: 'delivered', toStatus: 'pending' });
    expect(lines.some((l) => l.includes(`message ${id}: delivery undone by a reorg on Beta`))).toBe(true);
    const msg = await core.invoke('getMessage', { messageId: id });
    expect(msg.ok && (msg.value as { message: { status: string } }).message.status).toBe('pending');

    // `stuck` applies again: the message is older than the threshold once the clock moves on.
    expect(count(undone, 'stuck')).toBe(0);
    offsetMs = 6 * 60_000;
    await until('stuck', (ts) => count(ts, 'stuck') === 1);

    // Delivered again: left_pending fires again, once, however often the chains are read.
    await new TestRelayer([a, b]).deliverAll();
    await until('the second left_pending', (ts) => count(ts, 'left_pending') === 2);
    for (let i = 0; i < 3; i++) expect(count(await log(), 'left_pending')).toBe(2);
    expect(count(await log(), 'delivery_undone')).toBe(1);
  });
});
