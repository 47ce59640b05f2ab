/**
 * The calls the app produces for an operator to send by hand, sent on anvil against the real
 * TeleporterMessenger (icm-contracts, unchanged: test/fixtures/icm-contracts), delivered through Warp
 * as a relayer does. A core on your own nodes caches a delivered message whose execution failed (its
 * receiver refused it); its handCall gives retryMessageExecution, which the messenger refuses while
 * the receiver still fails and with one field altered (it checks the message's hash), runs once the
 * receiver is ready (the core's record then shows it executed), and refuses a second time. The fee of
 * that message stays owed on the one-way route until handCall's sendSpecifiedReceipts sends its receipt
 * back and a relayer delivers it; then it is redeemable on its source chain (the core reads it with
 * checkRelayerRewardAmount), and handCall's redeemRelayerRewards, sent by the reward address, pays it
 * in the fee token and empties the credit.
 */
import { encodeFunctionData, erc20Abi, getAddress, type Address, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorCore } from '../../src/core/monitor-core';
import { MESSENGER_CALLS } from '../../src/core/relayers/hand-calls';
import type { AppInfo, CachedMessage } from '../../src/shared/contract';
import type { HandCall } from '../../src/shared/relayer-config';
import type { RelayerEconomics } from '../../src/shared/relayers';
import { tempDir } from '../core/helpers';
import { waitFor } from '../support/wait-for';
import type { TestChain } from './chains';
import { compileRealMessenger } from './real-messenger/compile';
import { deploy, startRealMessengerChains, write } from './real-messenger/chains';
import { throughWarp } from './real-messenger/delivery';
import { sendRealMessage } from './real-messenger/send';
import { TestRelayer } from './relayer';
import { chainConfig, coreSpawningService } from './rig';

let a: TestChain, b: TestChain;
let core: MonitorCore;
let relayer: TestRelayer;
let token: Address, receiver: Address;
const tmp = tempDir('tw-hand-calls-');
const FEE = 42n;

beforeAll(async () => {
  [a, b] = await startRealMessengerChains(31451, 31452);
  token = await deploy(a, 'sender', 'FeeToken', [a.wallet('sender').account.address, 10n ** 21n]);
  receiver = await deploy(b, 'sender', 'FlakyReceiver');
  relayer = new TestRelayer([a, b], { deliverWith: throughWarp });
  core = await coreSpawningService(tmp.dir);
  const saved = await core.invoke('updateSettings', {
    network: 'fuji',
    dataSource: { kind: 'ownNodes', ownNodes: { chains: [chainConfig(a), chainConfig(b)], confirmations: 0, pollIntervalMs: 100 } },
  });
  expect(saved.ok).toBe(true);
  await core.start();
  await waitFor(async () => ((await call<AppInfo>('getAppInfo')).dataSource.baseUrl ? true : undefined), 30_000, 'the local service to listen');
  await call('addWatch', { address: a.wallet('sender').account.address, network: 'fuji' });
  // The relayer and its route watched (alerts off): its redeemable rewards are read from the messenger.
  await call('addRoute', { source: a.blockchainId, destination: b.blockchainId, network: 'fuji', alert: false });
  await call('addRelayer', { address: b.wallet('relayer').account.address, network: 'fuji', alert: false });
}, 120_000);
afterAll(async () => {
  await core?.close();
  await Promise.all([a, b].map((x) => x?.node.stop()));
  tmp.cleanup();
});

async function call<T>(method: string, input?: unknown): Promise<T> {
  const r = await core.invoke(method, input);
  if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
  return r.value as T;
}

/** Polls until the core's cached record of the message satisfies `ok`. */
function cachedWhen(messageId: Hex, ok: (r: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  return waitFor(
    async () => {
      await call('pollNow');
      const c = await call<CachedMessage | null>('getMessage', { messageId: messageId.slice(2) });
      const r = c?.message as unknown as Record<string, unknown> | undefined;
      return r && ok(r) ? r : undefined;
    },
    30_000,
    `the core's record of ${messageId.slice(0, 10)} to reach the expected state`,
  );
}

/** Sends a transaction as `who`; resolves with whether it succeeded (a revert is an answer, not an error). */
async function send(chain: TestChain, who: 'sender' | 'relayer', to: string, data: string): Promise<'success' | 'reverted'> {
  const w = chain.wallet(who);
  const hash = await w.client
    .sendTransaction({ to: to as Address, data: data as Hex, gas: 1_000_000n, account: w.account, chain: w.client.chain })
    .catch((e: Error) => (/revert/i.test(e.message) ? null : Promise.reject(e)));
  if (hash === null) return 'reverted';
  return (await chain.client.waitForTransactionReceipt({ hash })).status;
}

const readMessenger = <T>(chain: TestChain, functionName: string, args: unknown[]) =>
  chain.client.readContract({ address: chain.messenger, abi: compileRealMessenger().TeleporterMessenger.abi, functionName, args }) as Promise<T>;

let retried: Hex;

describe('the exact call for what needs a hand, sent to the real TeleporterMessenger on anvil', () => {
  it('retryMessageExecution from the core runs a failed execution once the receiver is ready, once; a message altered by one field is refused', async () => {
    const relayerAddress = b.wallet('relayer').account.address;
    // A fee, a gas limit and an allowed relayer: every field of the struct the messenger hashes is exercised.
    retried = await sendRealMessage(a, b, {
      to: receiver,
      fee: { token, amount: FEE },
      requiredGasLimit: 123_456n,
      allowedRelayers: [relayerAddress],
      data: '0xc0ffee',
    });
    expect(await relayer.deliverAll()).toBe(1);
    expect(await readMessenger<Hex>(b, 'receivedFailedMessageHashes', [retried])).not.toMatch(/^0x0+$/);

    const record = await cachedWhen(retried, (r) => r.status === 'delivered' && r.messageExecuted === false);
    expect(record).toMatchObject({ requiredGasLimit: '123456', allowedRelayerAddresses: [relayerAddress] });
    const hand = await call<HandCall>('handCall', { kind: 'retry', messageId: retried.slice(2) });
    expect(hand).toMatchObject({ to: getAddress(b.messenger), blockchainId: b.blockchainId, sender: null, missing: [] });
    expect(hand.cast).toBe(`cast send ${getAddress(b.messenger)} ${hand.calldata} --rpc-url "$RPC_URL" --private-key "$PRIVATE_KEY"`);

    // While the receiver still refuses, the retry reverts and can be sent again later.
    expect(await send(b, 'sender', hand.to, hand.calldata)).toBe('reverted');

    // One field off (the gas limit) and the messenger's hash check refuses it.
    const r = record as { messageNonce: string; from: Address; to: Address };
    const altered = encodeFunctionData({
      abi: MESSENGER_CALLS,
      functionName: 'retryMessageExecution',
      args: [
        a.blockchainIdHex,
        {
          messageNonce: BigInt(r.messageNonce),
          originSenderAddress: r.from,
          destinationBlockchainID: b.blockchainIdHex,
          destinationAddress: r.to,
          requiredGasLimit: 123_457n,
          allowedRelayerAddresses: [relayerAddress],
          receipts: [],
          message: '0xc0ffee',
        },
      ],
    });
    await write(b, 'sender', receiver, 'FlakyReceiver', 'setReady', []);
    expect(await send(b, 'sender', hand.to, altered)).toBe('reverted');

    // Anyone may send the exact call: the message runs, and the core's record shows it executed.
    expect(await send(b, 'sender', hand.to, hand.calldata)).toBe('success');
    const received = await b.client.readContract({ address: receiver, abi: compileRealMessenger().FlakyReceiver.abi, functionName: 'received' });
    expect(received).toBe(1n);
    await cachedWhen(retried, (x) => x.messageExecuted === true);
    expect(await send(b, 'sender', hand.to, hand.calldata)).toBe('reverted'); // once
  });

  it('sendSpecifiedReceipts from the core brings an owed fee back; redeemRelayerRewards, sent by the reward address, pays it in its token and empties the credit', async () => {
    const reward = b.wallet('relayer').account.address;
    const routeOf = (e: RelayerEconomics) => e.earnings.day.find((x) => x.sourceChain === a.blockchainId && x.destinationChain === b.blockchainId);
    const economics = async () => {
      await call('pollNow');
      return call<RelayerEconomics>('relayerEconomics');
    };
    // The route is one-way: no message goes back to a, so the fee stays owed (its receipt never rides back).
    const owedRow = await waitFor(async () => ((r) => (r?.owedMessageIds.length ? r : undefined))(routeOf(await economics())), 30_000, 'the owed fee');
    expect(owedRow.owedMessageIds).toEqual([retried.slice(2)]);
    expect(owedRow.owed).toEqual([expect.objectContaining({ token, value: String(FEE) })]);

    const receipts = await call<HandCall>('handCall', {
      kind: 'receipts',
      sourceBlockchainId: a.blockchainId,
      destinationBlockchainId: b.blockchainId,
      messageIds: owedRow.owedMessageIds,
    });
    expect(receipts).toMatchObject({ to: getAddress(b.messenger), blockchainId: b.blockchainId, sender: null, missing: [] });
    expect(receipts.next).toMatch(/a relayer \(yours\) must deliver it there/);
    // Anyone may send it on the destination chain; the relayer then delivers the receipts' message to a.
    expect(await send(b, 'sender', receipts.to, receipts.calldata)).toBe('success');
    expect(await relayer.deliverAll()).toBe(1);
    const owed = () => readMessenger<bigint>(a, 'checkRelayerRewardAmount', [reward, token]);
    expect(await owed()).toBe(FEE);
    // The core sees the receipt (paid, no longer owed) and reads the credit from the messenger: what the Relayers view offers to redeem.
    const paidRow = await waitFor(
      async () => ((r) => (r?.redeemable?.some((t) => t.token === token && t.value === String(FEE)) ? r : undefined))(routeOf(await economics())),
      30_000,
      "the route's redeemable rewards to be read as the fee",
    );
    expect(paidRow).toMatchObject({ owed: [], owedMessageIds: [], paid: [expect.objectContaining({ token, value: String(FEE) })] });

    const hand = await call<HandCall>('handCall', { kind: 'redeem', relayer: reward, blockchainId: a.blockchainId, feeAsset: token });
    expect(hand).toMatchObject({ to: getAddress(a.messenger), sender: reward, missing: [] });
    expect(hand.check).toBe(
      `cast call ${getAddress(a.messenger)} "checkRelayerRewardAmount(address,address)(uint256)" ${reward} ${token} --rpc-url "$RPC_URL"`,
    );
    const balance = () => a.client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [reward] });
    const before = await balance();
    // Only the reward address is paid (the messenger pays msg.sender): from anyone else it has nothing to redeem.
    expect(await send(a, 'sender', hand.to, hand.calldata)).toBe('reverted');
    expect(await send(a, 'relayer', hand.to, hand.calldata)).toBe('success');
    expect((await balance()) - before).toBe(FEE);
    expect(await owed()).toBe(0n);
    expect(await send(a, 'relayer', hand.to, hand.calldata)).toBe('reverted'); // nothing left
  });
});
