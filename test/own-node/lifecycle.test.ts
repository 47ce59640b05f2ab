/**
 * The whole life of messages read from real chains (anvil) through the real service, checked with the
 * official SDK: pending on send, delivered with its deliverer and times, execution, fee top-ups, the
 * receipt back on the source; a message from a chain that is not configured shows as delivered with
 * source not indexed; one to such a chain stays pending. Lookup by ID, by address and the filters
 * answer from the chains' records.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMessage } from '../../src/shared/messages';
import type { RunningService } from '../../src/local-service/index';
import { sdkFor, type SdkRig } from '../local-service/sdk-client';
import { startTestChains, type TestChain } from './chains';
import { compileTestMessenger } from './compile-messenger';
import { sendMessage, sendSpecifiedReceipts, TestRelayer } from './relayer';
import { recordWhen, startOwnNodeService } from './rig';

let a: TestChain, b: TestChain, c: TestChain;
let service: RunningService;
let rig: SdkRig;
let relayer: TestRelayer;

beforeAll(async () => {
  [a, b, c] = await startTestChains(31101, 31102, 31103);
  service = await startOwnNodeService([a, b]); // c is not configured
  rig = sdkFor(service.url);
  relayer = new TestRelayer([a, b, c]);
});
afterAll(async () => {
  await service?.close();
  await Promise.all([a, b, c].map((x) => x?.node.stop()));
});

const ids = (r: { messages: { messageId: string }[] }) => r.messages.map((m) => m.messageId);

describe('own nodes: a message between two configured chains', () => {
  it('goes pending -> delivered -> receipt delivered, with every field from the chains', async () => {
    const to = '0x00000000000000000000000000000000000000aa';
    const sent = await sendMessage(a, b, { to, data: '0xc0ffee', fee: 5n, feeToken: a.messenger });
    const id = sent.messageId.slice(2);
    const pending = await recordWhen(service, id, () => true);
    expect(pending).toMatchObject({ messageId: id, status: 'pending', sourceBlockchainId: a.blockchainId, destinationBlockchainId: b.blockchainId });
    expect(pending).toMatchObject({ sourceEvmChainId: '31101', destinationEvmChainId: '31102', messageNonce: '1', data: '0xc0ffee', receiptDelivered: false });
    const block = await a.client.getBlock({ blockNumber: sent.block });
    expect(pending.sourceTransaction).toMatchObject({ txHash: sent.txHash, timestamp: Number(block.timestamp) });
    expect((pending.to as string).toLowerCase()).toBe(to);
    expect(pending.from).toBe(a.wallet('sender').account.address);
    expect(pending.rewardDetails).toMatchObject({ value: '5', ercType: 'ERC-20' });

    // A fee top-up raises the reward.
    const w = a.wallet('sender');
    const hash = await w.client.writeContract({
      address: a.messenger,
      abi: compileTestMessenger().abi,
      functionName: 'addFeeAmount',
      args: [sent.messageId, a.messenger, 7n],
      account: w.account,
      chain: w.client.chain,
    });
    await a.client.waitForTransactionReceipt({ hash });
    await recordWhen(service, id, (r) => (r.rewardDetails as { value: string }).value === '12');

    await relayer.deliverAll();
    const delivered = await recordWhen(service, id, (r) => r.status === 'delivered');
    const recvTx = relayer.delivered.get(sent.messageId)!;
    expect(delivered.destinationTransaction).toMatchObject({
      txHash: recvTx,
      delivererAddress: b.wallet('relayer').account.address,
      rewardRedeemer: b.wallet('relayer').account.address,
    });
    expect(delivered.messageExecuted).toBe(true);
    expect(delivered.receiptDelivered).toBe(false);

    await sendSpecifiedReceipts(b, a, [sent.messageId]);
    await relayer.deliverAll();
    const receipted = await recordWhen(service, id, (r) => r.receiptDelivered === true);
    expect(receipted.status).toBe('delivered');
    // The carrier names the original in receipts[], as the Data API shows it.
    const carrierId = [...relayer.delivered.keys()].map((k) => k.slice(2)).find((k) => service.store.get(k)?.sourceBlockchainId === b.blockchainId)!;
    // Its source send may be indexed a scan after its delivery (delivered_source_not_indexed until then).
    const carrier = await recordWhen(service, carrierId, (r) => r.status === 'delivered');
    expect(carrier?.receipts).toEqual([{ receivedMessageNonce: '1', relayerRewardAddress: b.wallet('relayer').account.address }]);
    // A receipts-only message runs nothing (no execution event): not a failed execution.
    expect(carrier).toMatchObject({ status: 'delivered', data: '0x', messageExecuted: true });

    // Our own schema reads each state as its known variant.
    for (const r of [pending, delivered, receipted]) expect(parseMessage(r)?.status).toBe(r.status);
  });

  it('reports a failed execution as messageExecuted false', async () => {
    const sent = await sendMessage(a, b);
    relayer.failExecution.add(sent.messageId);
    await relayer.deliverAll();
    const r = await recordWhen(service, sent.messageId, (x) => x.status === 'delivered');
    expect(r.messageExecuted).toBe(false);
  });
});

describe('own nodes: chains that are not configured', () => {
  it('shows a message from an unconfigured chain as delivered with source not indexed', async () => {
    const sent = await sendMessage(c, b);
    await relayer.deliverAll();
    const r = await recordWhen(service, sent.messageId, () => true);
    expect(r.status).toBe('delivered_source_not_indexed');
    expect(r.sourceTransaction).toBeUndefined();
    expect(r).toMatchObject({ sourceBlockchainId: c.blockchainId, destinationBlockchainId: b.blockchainId });
    expect((r.icmContractAddress as string).toLowerCase()).toBe(b.messenger.toLowerCase());
    expect(parseMessage(r)?.status).toBe('delivered_source_not_indexed');
  });

  it('keeps a message to an unconfigured chain pending', async () => {
    const sent = await sendMessage(a, c);
    await relayer.deliverAll();
    expect(relayer.delivered.has(sent.messageId)).toBe(true);
    const r = await recordWhen(service, sent.messageId, () => true);
    expect(r.status).toBe('pending');
  });
});

describe('own nodes: the Data API operations over the chains records (official SDK)', () => {
  it('answers lookup by ID, by address and the filters; every answer passes the SDK', async () => {
    const sent = await sendMessage(a, b);
    await recordWhen(service, sent.messageId, () => true);
    const one = await rig.sdk.data.teleporter.getTeleporterMessage({ messageId: sent.messageId.slice(2) }, rig.opts);
    expect(one.messageId).toBe(sent.messageId.slice(2));
    const icm = await rig.sdk.data.icm.get({ messageId: sent.messageId }, rig.opts);
    expect(icm.messageId).toBe(sent.messageId.slice(2));

    const sender = a.wallet('sender').account.address;
    const byAddress = await rig.sdk.data.teleporter.listTeleporterMessagesByAddress({ address: sender, network: 'fuji', pageSize: 100 }, rig.opts);
    expect(ids(byAddress)).toContain(sent.messageId.slice(2));
    const all = (await rig.sdk.data.teleporter.listTeleporterMessages({ network: 'fuji', pageSize: 100 }, rig.opts)).result;
    expect(all.messages.length).toBe(service.store.count());
    const fromA = (await rig.sdk.data.teleporter.listTeleporterMessages({ network: 'fuji', sourceBlockchainId: a.blockchainId, pageSize: 100 }, rig.opts))
      .result;
    expect(fromA.messages.every((m) => m.sourceBlockchainId === a.blockchainId)).toBe(true);
    const toB = (await rig.sdk.data.icm.list({ network: 'fuji', destinationBlockchainId: '31102', pageSize: 100 }, rig.opts)).result;
    expect(toB.messages.length).toBeGreaterThan(0);
    expect(toB.messages.every((m) => m.destinationBlockchainId === b.blockchainId)).toBe(true);
    const mainnet = (await rig.sdk.data.teleporter.listTeleporterMessages({ network: 'mainnet', pageSize: 100 }, rig.opts)).result;
    expect(mainnet.messages).toEqual([]);

    // Paging: pages of 2 walk every message once (the SDK's own iterator).
    const seen: string[] = [];
    for await (const page of await rig.sdk.data.teleporter.listTeleporterMessages({ network: 'fuji', pageSize: 2 }, rig.opts)) seen.push(...ids(page.result));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(service.store.count());
  });

  it('reports each chain in /_local/info', async () => {
    const info = (await (await fetch(`${service.url}/_local/info`)).json()) as {
      simulated: boolean;
      ownNodes: { blockchainId: string; state: string; evmChainId: string }[];
    };
    expect(info.simulated).toBe(false);
    expect(info.ownNodes.map((n) => [n.blockchainId, n.state, n.evmChainId])).toEqual([
      [a.blockchainId, 'ok', '31101'],
      [b.blockchainId, 'ok', '31102'],
    ]);
  });
});
