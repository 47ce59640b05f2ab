/**
 * The test parts themselves: TestMessenger.sol compiles with solc from npm and emits the
 * TeleporterMessenger's events with their exact signatures; the anvil chains and the test relayer
 * carry a message and its receipt between two chains.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEventLogs, toEventSelector, type AbiEvent } from 'viem';
import { calculateMessageId, MESSENGER_EVENTS } from '../../src/chain-index/messenger-events';
import { compileTestMessenger } from './compile-messenger';
import { startTestChains, type TestChain } from './chains';
import { sendMessage, sendSpecifiedReceipts, TestRelayer } from './relayer';

let a: TestChain;
let b: TestChain;
beforeAll(async () => {
  [a, b] = await startTestChains(31001, 31002);
});
afterAll(async () => {
  await Promise.all([a?.node.stop(), b?.node.stop()]);
});

describe('test messenger', () => {
  it('declares every TeleporterMessenger event with the exact signature', () => {
    const compiled = compileTestMessenger().abi.filter((x): x is AbiEvent => x.type === 'event');
    const real: readonly AbiEvent[] = MESSENGER_EVENTS;
    expect(compiled.map((e) => toEventSelector(e)).sort()).toEqual(real.map((e) => toEventSelector(e)).sort());
    // One known selector from the deployed TeleporterMessenger, as a check that the ABI text is right.
    expect(toEventSelector(real.find((e) => e.name === 'MessageExecuted')!)).toBe(toEventSelector('MessageExecuted(bytes32,bytes32)'));
  });

  it('is deployed at one address on both chains, with distinct chain IDs', async () => {
    expect(a.messenger).toBe(b.messenger);
    expect(await a.client.getChainId()).toBe(31001);
    expect(await b.client.getChainId()).toBe(31002);
  });

  it('computes message IDs as the TeleporterMessenger does; the relayer delivers and receipts come back', async () => {
    const sent = await sendMessage(a, b);
    expect(sent.messageId).toBe(calculateMessageId(a.messenger, a.blockchainIdHex, b.blockchainIdHex, 1n));
    const relayer = new TestRelayer([a, b]);
    expect(await relayer.deliverAll()).toBe(1);
    expect(relayer.delivered.has(sent.messageId)).toBe(true);
    const back = await sendSpecifiedReceipts(b, a, [sent.messageId]);
    expect(await relayer.deliverAll()).toBe(1);
    const r = await a.client.waitForTransactionReceipt({ hash: relayer.delivered.get(back.messageId)! });
    const receipts = parseEventLogs({ abi: MESSENGER_EVENTS, logs: r.logs, eventName: 'ReceiptReceived' });
    expect(receipts.map((x) => x.args.messageID)).toEqual([sent.messageId]);
  });
});
