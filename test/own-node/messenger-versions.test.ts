/**
 * Two TeleporterMessenger versions on the same chains, as v1 and a later version run side by side:
 * each counts its nonces from 1, so the same route carries two messages with nonce 1 whose IDs differ
 * only by the messenger in them. With the real messenger (icm-contracts, unchanged) at two addresses on
 * each anvil chain and a relayer per version delivering through Warp, the own-nodes world keeps them
 * apart: each is pending until its own version delivers it (never by the other's delivery of the same
 * nonce), each names its messenger, and a receipt riding back on one version pays only that version's
 * message. The official SDK takes every answer.
 */
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/local-service/index';
import { startLocalService } from '../../src/local-service/index';
import { sdkFor, type SdkRig } from '../local-service/sdk-client';
import { asVersion, startRealMessengerChainsWith, type RealChain } from './real-messenger/chains';
import { throughWarp } from './real-messenger/delivery';
import { sendRealMessage } from './real-messenger/send';
import { TestRelayer } from './relayer';
import { chainConfig, recordWhen } from './rig';

let a: RealChain, b: RealChain;
let service: RunningService;
let rig: SdkRig;

beforeAll(async () => {
  [a, b] = await startRealMessengerChainsWith({ versions: 2 }, 31461, 31462);
  service = await startLocalService({
    rate: 0,
    warmStore: false,
    log: () => undefined,
    ownNodes: { chains: [a, b].map((c) => chainConfig(c, { messengers: c.messengers })), confirmations: 0, pollIntervalMs: 100 },
  });
  rig = sdkFor(service.url);
}, 120_000);
afterAll(async () => {
  await service?.close();
  await Promise.all([a, b].map((x) => x?.node.stop()));
});

const TO: Address = '0x00000000000000000000000000000000000000aa';
const stored = (id: string) => service.store.get(id.replace(/^0x/, ''))!;

describe('own nodes: two messenger versions sharing nonces, on the real messenger', () => {
  it('keeps the two nonce-1 messages of one route apart through delivery and receipt', async () => {
    expect(a.messengers).toEqual(b.messengers); // each version at one address on every chain
    const [v1, v2] = a.messengers as [Address, Address];
    expect(v1).not.toBe(v2);
    const [a1, b1, a2, b2] = [asVersion(a, 0), asVersion(b, 0), asVersion(a, 1), asVersion(b, 1)];
    const relayer1 = new TestRelayer([a1, b1], { deliverWith: throughWarp });
    const relayer2 = new TestRelayer([a2, b2], { deliverWith: throughWarp });

    const id1 = await sendRealMessage(a1, b1, { to: TO, data: '0x01' });
    const id2 = await sendRealMessage(a2, b2, { to: TO, data: '0x02' });
    expect(id1).not.toBe(id2);
    for (const [id, messenger] of [
      [id1, v1],
      [id2, v2],
    ] as const) {
      const r = await recordWhen(service, id, () => true);
      expect(r).toMatchObject({ status: 'pending', messageNonce: '1', sourceBlockchainId: a.blockchainId, destinationBlockchainId: b.blockchainId });
      expect((r.teleporterContractAddress as string).toLowerCase()).toBe(messenger.toLowerCase());
    }

    // Version 2 delivers its message first: version 1's, same route and nonce, is still pending.
    expect(await relayer2.deliverAll()).toBe(1);
    const delivered2 = await recordWhen(service, id2, (r) => r.status === 'delivered');
    // TO has no code: the real messenger stores that as a failed execution (retryable once code is there).
    expect(delivered2).toMatchObject({ data: '0x02', messageExecuted: false });
    expect(stored(id1).status).toBe('pending');
    expect(await relayer1.deliverAll()).toBe(1);
    await recordWhen(service, id1, (r) => r.status === 'delivered');

    // A message back on version 2 carries version 2's receipt (nonce 1 from a): version 1's message stays owed.
    const back = await sendRealMessage(b2, a2, { to: TO });
    expect(await relayer2.deliverAll()).toBe(1);
    await recordWhen(service, id2, (r) => r.receiptDelivered === true);
    await recordWhen(service, back, (r) => r.status === 'delivered');
    expect(stored(id1).receiptDelivered).toBe(false);

    // What the service says of both passes the official SDK, each by ID and in the list.
    for (const id of [id1, id2]) expect((await rig.sdk.data.icm.get({ messageId: id }, rig.opts)).messageId).toBe(id.slice(2));
    const listed = (await rig.sdk.data.icm.list({ network: 'fuji', sourceBlockchainId: a.blockchainId, pageSize: 100 }, rig.opts)).result.messages;
    expect(listed.map((m) => m.messageId).sort()).toEqual([id1, id2].map((id) => id.slice(2)).sort());
  });
});
