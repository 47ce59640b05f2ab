/**
 * An own node going down is a state with its own alert, never news about relayers (issue 41): the core
 * reads two real anvil chains through the local service it spawns; one node stops answering (a
 * JSON-RPC proxy in front of it). The poll status names that chain down, since when and why;
 * "Can't read Alpha" fires once SOURCE_DOWN_AFTER_MS have passed (the core's clock), the other chain is
 * still seen, and "Alpha read again" follows when it answers. The service runs in real time; the core's
 * clock is moved by hand past the threshold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorCore } from '../../src/core/monitor-core';
import type { NotificationPayload, PollStatus } from '../../src/shared/contract';
import { SOURCE_DOWN_AFTER_MS } from '../../src/shared/policy';
import { tempDir } from '../core/helpers';
import { JumpClock } from '../core/http-helpers';
import { waitFor } from '../support/wait-for';
import { startTestChains, type TestChain } from './chains';
import { chainConfig, coreSpawningService } from './rig';
import { startRpcProxy, type RpcProxy } from './rpc-proxy';

let a: TestChain, b: TestChain;
let pa: RpcProxy;
let core: MonitorCore;
const clock = new JumpClock(Date.now());
const tmp = tempDir('tw-own-chain-down-');
const shown: NotificationPayload[] = [];

beforeAll(async () => {
  [a, b] = await startTestChains(31621, 31622);
  pa = await startRpcProxy(a.node.url);
  core = await coreSpawningService(tmp.dir, { clock });
  core.attachNotifier((n) => void shown.push(n));
  const saved = await core.invoke('updateSettings', {
    dataSource: {
      kind: 'ownNodes',
      ownNodes: {
        chains: [chainConfig(a, { name: 'Alpha', rpcUrl: pa.url }), chainConfig(b, { name: 'Beta' })],
        confirmations: 0,
        pollIntervalMs: 200,
        requestTimeoutMs: 2_000,
      },
    },
  });
  expect(saved.ok).toBe(true);
  await core.start();
  // A watched route is what the poller reads (asked: the source's health is known from the first cycle).
  expect((await core.invoke('addRoute', { source: 'Alpha', destination: 'Beta', alert: false })).ok).toBe(true);
}, 120_000);
afterAll(async () => {
  await core?.close();
  await pa?.close();
  await Promise.all([a?.node.stop(), b?.node.stop()]);
  tmp.cleanup();
});

const status = async (): Promise<PollStatus> => {
  const r = await core.invoke('pollNow', undefined);
  if (!r.ok) throw new Error(r.error.message);
  return r.value as PollStatus;
};
const chain = (s: PollStatus, name: string) => s.source?.chains.find((c) => c.name === name);

describe('an own node down', () => {
  it('is named down with since when and why, alerts once past the threshold, keeps the other chain seen, and says when it is back', async () => {
    await waitFor(async () => chain(await status(), 'Alpha')?.state === 'up' && chain(await status(), 'Beta')?.state === 'up', 60_000, 'both chains up');

    pa.faults = { down: true };
    const failing = await waitFor(
      async () => {
        const c = chain(await status(), 'Alpha');
        return c?.state === 'degraded' && c.reason?.startsWith('failing since') ? c : undefined;
      },
      60_000,
      'Alpha failing',
    );
    expect(failing.reason).toMatch(/retrying/);
    expect(shown.filter((n) => n.title.startsWith("Can't read"))).toEqual([]);

    await clock.advance(SOURCE_DOWN_AFTER_MS);
    const down = await status();
    expect(chain(down, 'Alpha')).toMatchObject({ state: 'down' });
    expect(chain(down, 'Beta')).toMatchObject({ state: 'up' });
    // Not the source down: one chain of two; the source reads on, degraded.
    expect(down.source).toMatchObject({ source: 'ownNodes', state: 'degraded' });
    const fired = shown.filter((n) => n.title === "Can't read Alpha");
    expect(fired).toHaveLength(1);
    expect(fired[0]!.body).toMatch(/^Can't read Alpha \(your own node\) since \d\d:\d\d: /);
    expect(fired[0]!.severity).toBe('warning');
    await status();
    expect(shown.filter((n) => n.title === "Can't read Alpha")).toHaveLength(1);

    pa.faults = {};
    await waitFor(async () => chain(await status(), 'Alpha')?.state === 'up', 60_000, 'Alpha back');
    await status();
    expect(shown.filter((n) => n.title === 'Alpha read again')).toHaveLength(1);
  }, 180_000);
});
