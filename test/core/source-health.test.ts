import { describe, expect, it } from 'vitest';
import { SourceHealthTracker, type CycleReport } from '../../src/core/sources/source-health';
import { stuckHeld } from '../../src/core/sources/sight';
import { ManualClock } from '../../src/shared/clock';
import type { ErrorInfo } from '../../src/shared/errors';
import type { OwnNodeStatus } from '../../src/shared/own-nodes';
import { CATCH_UP_MAX_MS, SOURCE_DOWN_AFTER_MS } from '../../src/shared/policy';

const T0 = Date.UTC(2026, 0, 1, 14, 2);

function rig(source = 'avalanche') {
  const clock = new ManualClock(T0);
  let current = source;
  const h = new SourceHealthTracker(clock, () => current);
  const cycle = (error: ErrorInfo | null, o: Partial<CycleReport> = {}) =>
    h.observeCycle({ source: current, at: clock.now(), error, asked: true, read: error === null, complete: error === null, ...o });
  return { clock, h, cycle, switchTo: (s: string) => (current = s) };
}

const net: ErrorInfo = { kind: 'network', message: 'Could not reach glacier-api.avax.network (ECONNREFUSED).' };
const chain = (blockchainId: string, state: OwnNodeStatus['state'], message = ''): OwnNodeStatus => ({
  blockchainId,
  name: blockchainId.toUpperCase(),
  host: '127.0.0.1',
  state,
  message,
  evmChainId: null,
  head: null,
  indexedTo: null,
  span: 1,
  rpcCalls: 0,
  reorgs: 0,
  lastScanAt: null,
  skipped: {},
});

describe('the source health', () => {
  it('is unknown until a read succeeds; a cycle that asked nothing proves nothing', () => {
    const { h, cycle } = rig();
    expect(h.snapshot()).toMatchObject({ source: 'avalanche', state: 'unknown', seeing: false, lastSuccessAt: null });
    cycle(null, { asked: false });
    expect(h.snapshot()?.state).toBe('unknown');
    cycle(null);
    expect(h.snapshot()).toMatchObject({ state: 'up', since: T0, seeing: true, lastSuccessAt: T0, reason: null });
  });

  it('failing is degraded (retried), down once it has failed SOURCE_DOWN_AFTER_MS, down since the first failure', async () => {
    const { clock, h, cycle } = rig();
    cycle(null);
    await clock.advance(30_000);
    const failedAt = clock.now();
    cycle(net);
    expect(h.snapshot()).toMatchObject({ state: 'degraded', seeing: false });
    expect(h.snapshot()?.reason).toMatch(/^failing since \d\d:\d\d, retrying: Could not reach/);
    expect(h.sourceDown()).toBeNull();
    await clock.advance(SOURCE_DOWN_AFTER_MS);
    cycle(net);
    expect(h.snapshot()).toMatchObject({ state: 'down', since: failedAt, reason: net.message, seeing: false });
    expect(h.sourceDown()).toEqual({ since: failedAt, reason: net.message });
  });

  it('comes back up with a moment the held rules read from, and waits for a complete read (at most CATCH_UP_MAX_MS)', async () => {
    const { clock, h, cycle } = rig();
    cycle(null);
    cycle(net);
    await clock.advance(SOURCE_DOWN_AFTER_MS);
    cycle({ kind: 'server', message: 'HTTP 503' });
    await clock.advance(30_000);
    const back = clock.now();
    cycle(null, { complete: false });
    expect(h.snapshot()).toMatchObject({ state: 'up', seeing: false });
    expect(h.backSince([])).toBe(back);
    const message = { sourceChain: 'a', destinationChain: 'b', lastSeenAt: back - 1 };
    expect(stuckHeld(h, { ...message, lastSeenAt: back })).toBe(true);
    cycle(null, { complete: true });
    expect(h.seeing()).toBe(true);
    // Seen pending since it came back: judged; last read before: read again first.
    expect(stuckHeld(h, { ...message, lastSeenAt: back })).toBe(false);
    expect(stuckHeld(h, message)).toBe(true);
    // A list never read whole (busier than the budget): the wait ends anyway.
    cycle(net);
    await clock.advance(1000);
    cycle(null, { complete: false });
    expect(h.seeing()).toBe(false);
    await clock.advance(CATCH_UP_MAX_MS);
    expect(h.seeing()).toBe(true);
  });

  it('a cycle the budget cut short after some reads is a read, a late one: it ends a failure and never leaves the source unknown', async () => {
    const { clock, h, cycle } = rig();
    const budget: ErrorInfo = { kind: 'rate_limited', message: 'The request budget for this poll cycle is used up; polling continues on the next cycle.' };
    cycle(budget, { read: true, complete: false });
    expect(h.snapshot()).toMatchObject({ state: 'degraded', lastSuccessAt: T0 });
    cycle(net);
    await clock.advance(SOURCE_DOWN_AFTER_MS);
    cycle(net);
    expect(h.snapshot()?.state).toBe('down');
    await clock.advance(30_000);
    cycle(budget, { read: true, complete: false });
    expect(h.snapshot()).toMatchObject({ state: 'degraded', lastSuccessAt: clock.now() });
    expect(h.sourceDown()).toBeNull();
    await clock.advance(CATCH_UP_MAX_MS);
    expect(h.seeing()).toBe(true);
  });

  it('rate limits make reads later, not blind, until nothing has been read for SOURCE_DOWN_AFTER_MS', async () => {
    const { clock, h, cycle } = rig();
    cycle(null);
    cycle({ kind: 'rate_limited', message: 'Too many requests', retryAt: T0 + 60_000 });
    expect(h.snapshot()).toMatchObject({ state: 'degraded', seeing: true, reason: 'rate limited until 14:03' });
    await clock.advance(SOURCE_DOWN_AFTER_MS);
    cycle({ kind: 'rate_limited', message: 'Too many requests' });
    expect(h.snapshot()).toMatchObject({ state: 'degraded', seeing: false });
    expect(h.snapshot()?.reason).toMatch(/^nothing read since 14:02/);
    // Never the source's "Can't read": it answers, it paces.
    expect(h.sourceDown()).toBeNull();
    cycle(null);
    expect(h.snapshot()).toMatchObject({ state: 'up' });
  });

  it("our own fault that keeps a cycle from reading holds the alerts but is never the source's blame; a refused request is one request's", () => {
    const { h, cycle } = rig();
    cycle(null);
    cycle({ kind: 'internal', message: 'Polling hit an unexpected problem: x is undefined' });
    expect(h.snapshot()).toMatchObject({ state: 'degraded', seeing: false });
    expect(h.snapshot()?.reason).toMatch(/fault of the monitor's own \(not the source's\)/);
    expect(h.sourceDown()).toBeNull();
    cycle(null);
    // A 400 beside other answers is that request's; a 400 to every call is a source that does not speak the Data API.
    cycle({ kind: 'bad_request', message: 'HTTP 400: bad filter' }, { read: true });
    expect(h.snapshot()).toMatchObject({ state: 'up', seeing: true });
    cycle({ kind: 'bad_request', message: 'HTTP 400: not the Data API' });
    expect(h.snapshot()).toMatchObject({ state: 'degraded', seeing: false });
  });

  it("a switch starts again at unknown: one source's successes never vouch for another", () => {
    const { h, cycle, switchTo } = rig('local');
    cycle(null);
    expect(h.snapshot()?.state).toBe('up');
    switchTo('custom:http://127.0.0.1:9');
    expect(h.snapshot()).toMatchObject({
      source: 'custom:http://127.0.0.1:9',
      name: 'the custom URL http://127.0.0.1:9',
      state: 'unknown',
      lastSuccessAt: null,
    });
    // A cycle that began before the switch says nothing of the new source.
    h.observeCycle({ source: 'local', at: T0, error: null, asked: true, read: true, complete: true });
    expect(h.snapshot()?.state).toBe('unknown');
  });

  it('with own nodes: one chain down leaves the others seen; every chain down is the source down', async () => {
    const { clock, h, cycle } = rig('ownNodes');
    cycle(null);
    h.observeChains([chain('a', 'ok'), chain('b', 'down', 'connection refused')], clock.now());
    expect(h.snapshot()).toMatchObject({ state: 'degraded', seeing: true });
    expect(h.sees('a')).toBe(true);
    expect(h.sees('b')).toBe(false);
    expect(h.sees('other')).toBe(true);
    expect(h.chainsDown()).toEqual([]);
    await clock.advance(SOURCE_DOWN_AFTER_MS);
    h.observeChains([chain('a', 'ok'), chain('b', 'down', 'connection refused')], clock.now());
    expect(h.chainsDown()).toEqual([{ blockchainId: 'b', name: 'B', since: T0, reason: 'connection refused' }]);
    expect(h.snapshot()?.chains.find((c) => c.blockchainId === 'b')).toMatchObject({ state: 'down', since: T0 });
    h.observeChains([chain('a', 'wrong_chain', 'eth_chainId says 1'), chain('b', 'down', 'connection refused')], clock.now());
    await clock.advance(SOURCE_DOWN_AFTER_MS);
    expect(h.snapshot()?.state).toBe('down');
    expect(h.seeing()).toBe(false);
    // A fault of ours on a chain is never the node's: no chain down, but not seen either (its alerts held).
    h.observeChains([chain('a', 'ok'), chain('b', 'internal_error', 'the index store was closed')], clock.now());
    await clock.advance(SOURCE_DOWN_AFTER_MS);
    expect(h.chainsDown()).toEqual([]);
    expect(h.sees('b')).toBe(false);
    expect(h.snapshot()?.chains.find((c) => c.blockchainId === 'b')?.reason).toMatch(/fault of the monitor's own \(not the node's\)/);
    // A chain starting is not seen yet; slow is read, later.
    h.observeChains([chain('a', 'starting'), chain('b', 'slow', 'answers in 4 s')], clock.now());
    expect(h.sees('a')).toBe(false);
    expect(h.snapshot()?.chains.find((c) => c.blockchainId === 'b')).toMatchObject({ state: 'degraded', reason: 'answers in 4 s' });
  });
});
