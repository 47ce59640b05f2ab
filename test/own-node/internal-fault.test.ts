/**
 * Issue 41: a fault of ours is never blamed on a node. The service's own store fails under the chain
 * indexer (closed beneath it) while the node answers normally: the chain shows `internal_error` with a
 * message that says the fault is Teleporter Watch's, not "node down" or "not the JSON-RPC a node sends".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/local-service/index';
import type { OwnNodeStatus } from '../../src/shared/own-nodes';
import { waitFor } from '../support/wait-for';
import { startTestChains, type TestChain } from './chains';
import { sendMessage } from './relayer';
import { recordWhen, startOwnNodeService } from './rig';

let a: TestChain, b: TestChain;
let service: RunningService;

beforeAll(async () => {
  [a, b] = await startTestChains(32601, 32602);
  service = await startOwnNodeService([a, b]);
});
afterAll(async () => {
  await service?.close();
  await Promise.all([a?.node.stop(), b?.node.stop()]);
});

const statusOf = (c: TestChain): OwnNodeStatus => service.ownNodes()!.find((n) => n.blockchainId === c.blockchainId)!;

describe('own nodes: a fault of ours', () => {
  it('shows as an internal error of the app, never as the node being down', async () => {
    await recordWhen(service, (await sendMessage(a, b)).messageId, () => true);
    service.store.close(); // every write of the indexer now fails in our code, while both nodes answer
    await sendMessage(a, b);
    const st = await waitFor(() => (statusOf(a).state === 'internal_error' ? statusOf(a) : undefined), 15_000, 'chain a to show an internal error');
    expect(st.message).toMatch(/failed in Teleporter Watch itself, not at the node/);
    expect(st.message).not.toMatch(/JSON-RPC|node failed|cannot be reached/);
    expect(['ok', 'internal_error']).toContain(statusOf(b).state);
  });
});
