/** The poll status bar's words for one own-nodes chain: what was skipped as malformed is among its figures. */
import { describe, expect, it } from 'vitest';
import { ownNodeView } from '../../src/renderer/src/logic/own-node-state';
import type { OwnNodeStatus } from '../../src/shared/own-nodes';

const status = (over: Partial<OwnNodeStatus> = {}): OwnNodeStatus => ({
  blockchainId: '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5',
  name: 'Alpha',
  host: '127.0.0.1:8545',
  state: 'ok',
  message: '',
  evmChainId: '43114',
  head: 100,
  indexedTo: 99,
  span: 2000,
  rpcCalls: 12,
  reorgs: 0,
  lastScanAt: 1,
  skipped: {},
  ...over,
});

describe('own node view', () => {
  it('names what was skipped as malformed, by reason, and says nothing of it when nothing was', () => {
    expect(ownNodeView(status({ skipped: { negative_number: 2, bad_hex: 1 } })).detail).toContain('skipped 3 (negative number 2, bad hex 1)');
    expect(ownNodeView(status()).detail).not.toContain('skipped');
  });
});
