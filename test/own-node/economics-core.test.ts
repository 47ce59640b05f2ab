/**
 * A watched relayer's fuel and earnings with your own nodes as the core's data source, on real anvil
 * chains with the test messenger: the balance of its wallet is read through the local service
 * (no read error) and equals the node's; the fee of a delivered message whose receipt came back is
 * redeemable on the route's source chain (`checkRelayerRewardAmount`), and 0 at the read after the
 * relayer redeemed it. A watched route's failed executions of the last hour alert at the threshold
 * (one notification) and resolve once they age out of the hour. When both nodes stop answering, the
 * source is down (not seen): neither the wallet nor the redeemable is asked, both keep their last read.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress, type Address } from 'viem';
import type { MonitorCore } from '../../src/core/monitor-core';
import type { AppInfo, NotificationPayload, PollStatus, Settings } from '../../src/shared/contract';
import { BALANCE_MAX_AGE_MINUTES } from '../../src/shared/policy';
import type { RelayerEconomics, RouteEarnings } from '../../src/shared/relayers';
import { JumpClock } from '../core/http-helpers';
import { tempDir } from '../core/helpers';
import { waitFor } from '../support/wait-for';
import { startTestChains, type TestChain } from './chains';
import { compileTestMessenger } from './compile-messenger';
import { sendMessage, sendSpecifiedReceipts, TestRelayer } from './relayer';
import { chainConfig, coreSpawningService } from './rig';

let a: TestChain, b: TestChain;
let core: MonitorCore;
/** One relayer for the whole file: it remembers what it delivered (a second one would deliver again and revert). */
let relayer: TestRelayer;
const tmp = tempDir('tw-own-econ-');
/** The core's clock: moved to the chains' time before each poll, and past the 5-minute read cadence on purpose. */
const clock = new JumpClock(Date.now());
const feeToken: Address = getAddress('0x000000000000000000000000000000000000fee2');

beforeAll(async () => {
  [a, b] = await startTestChains(33501, 33502);
  core = await coreSpawningService(tmp.dir, { clock });
  relayer = new TestRelayer([a, b]);
  // Own nodes as the data source, the relayer and its route a → b watched (alert off).
  const saved = await core.invoke('updateSettings', {
    network: 'fuji',
    dataSource: { kind: 'ownNodes', ownNodes: { chains: [chainConfig(a), chainConfig(b)], confirmations: 0, pollIntervalMs: 200 } },
  });
  expect(saved.ok).toBe(true);
  await core.start();
  await waitFor(
    async () => {
      const r = await core.invoke('getAppInfo', undefined);
      return r.ok && (r.value as AppInfo).dataSource.baseUrl ? true : undefined;
    },
    30_000,
    'the local service to listen',
  );
  await call('addRoute', { source: a.blockchainId, destination: b.blockchainId, network: 'fuji', alert: false });
  await call('addRelayer', { address: b.wallet('relayer').account.address, label: 'Anvil relayer', network: 'fuji', alert: false });
});
afterAll(async () => {
  await core?.close();
  await Promise.all([a?.node.stop(), b?.node.stop()]);
  tmp.cleanup();
});

async function call<T>(method: string, input?: unknown): Promise<T> {
  const r = await core.invoke(method, input);
  if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
  return r.value as T;
}

/** A poll cycle at the chains' time (block timestamps follow the wall clock; the core's clock only moves when told): its status. */
async function statusAtChainTime(): Promise<PollStatus> {
  const behind = Date.now() + 2_000 - clock.now();
  if (behind > 0) await clock.advance(behind);
  return call<PollStatus>('pollNow');
}

/** A poll cycle at the chains' time: the relayer economics after it. */
async function pollAtChainTime(): Promise<RelayerEconomics> {
  await statusAtChainTime();
  return call<RelayerEconomics>('relayerEconomics');
}

const walletOf = (e: RelayerEconomics) => e.fuel.find((f) => f.blockchainId === b.blockchainId)!;

const routeOf = (e: RelayerEconomics): RouteEarnings | undefined =>
  e.earnings.day.find((r) => r.sourceChain === a.blockchainId && r.destinationChain === b.blockchainId);

describe('relayer economics on own nodes', () => {
  it('reads the wallet through the local service and the redeemable fee from the source chain, 0 after redeeming', { timeout: 120_000 }, async () => {
    const relayerAddress = b.wallet('relayer').account.address;
    const sent = await sendMessage(a, b, { fee: 4_250n, feeToken });
    await relayer.deliverAll();
    await sendSpecifiedReceipts(b, a, [sent.messageId]);
    await relayer.deliverAll();

    const paid = await waitFor(
      async () => {
        const e = await pollAtChainTime();
        const r = routeOf(e);
        return r?.paid.some((t) => t.value === '4250') && r.redeemable ? e : undefined;
      },
      60_000,
      'the paid fee and its redeemable amount',
    );
    const route = routeOf(paid)!;
    expect(route.paid).toEqual([expect.objectContaining({ token: feeToken, value: '4250' })]);
    expect(route.owed).toEqual([]);
    expect(route.redeemable).toEqual([expect.objectContaining({ token: feeToken, value: '4250', fiat: null })]);

    // The wallet on the destination chain: read through the local service, as the node has it.
    const wallet = paid.fuel.find((f) => f.blockchainId === b.blockchainId && f.relayer === relayerAddress.toLowerCase());
    expect(wallet?.readError).toBeNull();
    expect(wallet?.balance).toBe((await b.client.getBalance({ address: relayerAddress })).toString());
    expect(wallet?.usdPrice).toBeNull();

    // Redeemed on the source chain: the next read (5 minutes on) says 0.
    const w = a.wallet('relayer');
    const hash = await w.client.writeContract({
      address: a.messenger,
      abi: compileTestMessenger().abi,
      functionName: 'redeemRelayerRewards',
      args: [feeToken],
      account: w.account,
      chain: w.client.chain,
    });
    expect((await a.client.waitForTransactionReceipt({ hash })).status).toBe('success');
    expect(routeOf(await pollAtChainTime())!.redeemable).toEqual([expect.objectContaining({ value: '4250' })]);
    await clock.advance(5 * 60_000);
    expect(routeOf(await pollAtChainTime())!.redeemable).toEqual([expect.objectContaining({ token: feeToken, value: '0' })]);
  });

  it(
    'alerts once when a watched route has the threshold of failed executions in the last hour, and resolves when they age out',
    { timeout: 120_000 },
    async () => {
      const shown: (NotificationPayload & { at: number })[] = [];
      core.attachNotifier((n) => void shown.push({ ...n, at: clock.now() }));
      const settings = await call<Settings>('updateSettings', { routeFailedExecutionsPerHour: 2 });
      expect(settings.routeFailedExecutionsPerHour).toBe(2);
      await call('addRoute', { source: b.blockchainId, destination: a.blockchainId, label: 'B to A', network: 'fuji', alert: true });
      const backRow = (e: RelayerEconomics) => e.routeFailures.find((r) => r.label === 'B to A');

      const failing = await sendMessage(b, a);
      relayer.failExecution.add(failing.messageId);
      await sendMessage(b, a); // executes: not counted
      await relayer.deliverAll();
      // One failure in the cache: under the threshold, nothing fires.
      await waitFor(
        async () => {
          const e = await pollAtChainTime();
          return backRow(e)?.hour.count === 1 ? true : undefined;
        },
        30_000,
        'the first failed execution in the cache',
      );
      const failedTitle = 'Failed executions on B to A';
      expect(shown.filter((n) => n.title === failedTitle)).toEqual([]);

      const second = await sendMessage(b, a);
      relayer.failExecution.add(second.messageId);
      await relayer.deliverAll();
      const firing = await waitFor(
        async () => {
          const e = await pollAtChainTime();
          return shown.some((n) => n.title === failedTitle) ? e : undefined;
        },
        30_000,
        'the failed-execution alert',
      );
      // Newest first, as the records name them (no 0x).
      expect(backRow(firing)).toMatchObject({ firing: true, hour: { count: 2, messageIds: [second.messageId.slice(2), failing.messageId.slice(2)] } });
      const fired = shown.filter((n) => n.title === failedTitle);
      expect(fired).toHaveLength(1);
      expect(fired[0]!.severity).toBe('warning');
      expect(fired[0]!.body).toMatch(/^2 message\(s\) delivered on .+ in the last hour failed to execute \(threshold 2\)/);
      // Still holding at the next cycle: no second announcement.
      await pollAtChainTime();
      expect(shown.filter((n) => n.title === failedTitle)).toHaveLength(1);

      // An hour on, both failures are out of the window: resolved, once.
      await clock.advance(61 * 60_000);
      const resolvedTitle = 'Failed executions back under the threshold: B to A';
      await waitFor(
        async () => {
          await call('pollNow');
          return shown.some((n) => n.title === resolvedTitle) ? true : undefined;
        },
        30_000,
        'the resolve',
      );
      await call('pollNow');
      expect(shown.filter((n) => n.title === resolvedTitle)).toHaveLength(1);
      expect(shown.filter((n) => n.title === failedTitle)).toHaveLength(1);
      expect(backRow(await call<RelayerEconomics>('relayerEconomics'))).toMatchObject({ firing: false, hour: { count: 0 } });
    },
  );

  it('nodes that stop answering: not seen, so neither the wallet nor the redeemable is asked; both keep their last amounts', { timeout: 120_000 }, async () => {
    const before = await pollAtChainTime();
    const walletBefore = walletOf(before);
    expect(walletBefore.readError).toBeNull();
    expect(walletBefore.balance).not.toBeNull();
    expect(routeOf(before)!.redeemable).toEqual([expect.objectContaining({ token: feeToken, value: '0' })]);
    await Promise.all([a.node.stop(), b.node.stop()]);
    // The service reports each failing node at its next read; from then on neither chain is seen.
    await waitFor(
      async () => {
        const s = await statusAtChainTime();
        return s.source?.chains.length === 2 && s.source.chains.every((c) => c.state !== 'up') ? true : undefined;
      },
      30_000,
      'both nodes reported failing',
    );
    // A full wallet is read again once its last read is BALANCE_MAX_AGE_MINUTES old (src/core/relayers/fuel-reads.ts): not while its chain is not seen.
    await clock.advance((BALANCE_MAX_AGE_MINUTES + 1) * 60_000);
    const status = await statusAtChainTime();
    expect(status.source).toMatchObject({ state: 'down', reason: expect.stringMatching(/^every chain's node is down/) });
    const e = await call<RelayerEconomics>('relayerEconomics');
    const wallet = walletOf(e);
    // Not seeing is not news about the relayer: no read asked, no read error; the last read shows, with its time.
    expect(wallet).toMatchObject({ readError: null, readAt: walletBefore.readAt, balance: walletBefore.balance });
    // The redeemable (due again by now) is not asked either: it keeps its last amounts, and no failed read is logged.
    expect(routeOf(e)!.redeemable).toEqual(routeOf(before)!.redeemable);
    const log = readFileSync(join(tmp.dir, 'logs', 'core.log'), 'utf8');
    expect(log).not.toContain('redeemable rewards read failed');
  });
});
