/**
 * A chain with a WebSocket URL is read as its blocks arrive: with polling set to a minute, a new
 * message is still stored within seconds, woken by the new-block subscription.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningService } from '../../src/local-service/index';
import { startLocalService } from '../../src/local-service/index';
import { waitFor } from '../support/wait-for';
import { startTestChains, type TestChain } from './chains';
import { sendMessage } from './relayer';
import { chainConfig, recordWhen } from './rig';

let a: TestChain, b: TestChain;
let service: RunningService;
beforeAll(async () => {
  [a, b] = await startTestChains(31701, 31702);
  service = await startLocalService({
    rate: 0,
    warmStore: false,
    log: () => undefined,
    ownNodes: { chains: [chainConfig(a, { wsUrl: a.node.wsUrl }), chainConfig(b)], confirmations: 0, pollIntervalMs: 60_000 },
  });
});
afterAll(async () => {
  await service?.close();
  await Promise.all([a?.node.stop(), b?.node.stop()]);
});

it('reads a new block at once through the WebSocket subscription, not at the next poll', async () => {
  await waitFor(() => service.ownNodes()![0]!.state === 'ok' && service.ownNodes()![0]!.lastScanAt !== null, 20_000, 'the first scan');
  const scans = service.ownNodes()![0]!.lastScanAt;
  const sent = await sendMessage(a, b);
  // Within 20 s, far below the 60 s poll interval: only the subscription can have woken the scan.
  const r = await recordWhen(service, sent.messageId, () => true, 20_000);
  expect(r.status).toBe('pending');
  expect(service.ownNodes()![0]!.lastScanAt).toBeGreaterThan(scans!);
});
