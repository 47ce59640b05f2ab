/**
 * What the local service reads from a node on demand, on real anvil chains with the test
 * messenger: the balance operation (`balances:getNative`, the official SDK as the client) answers the
 * node's `eth_getBalance`, and `/_local/relayer-rewards` answers `checkRelayerRewardAmount`: a
 * delivered message's fee becomes redeemable once its receipt is back, and 0 once redeemed. Unknown
 * chains, bad addresses and a node that is down get the Data API's error bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as errors from '@avalabs/avacloud-sdk/models/errors/index.js';
import { getAddress, type Address } from 'viem';
import { startLocalService, type RunningService } from '../../src/local-service/index';
import { OwnNodeReads } from '../../src/chain-index/node-reads';
import { OwnNodesSchema } from '../../src/shared/own-nodes';
import { sdkFor, type SdkRig } from '../local-service/sdk-client';
import { blockchainIdFor, startTestChains, type TestChain } from './chains';
import { compileTestMessenger } from './compile-messenger';
import { sendMessage, sendSpecifiedReceipts, TestRelayer } from './relayer';
import { chainConfig, recordWhen } from './rig';

let a: TestChain, b: TestChain;
let service: RunningService;
let rig: SdkRig;
let relayer: TestRelayer;
/** A configured chain whose node never answers (nothing listens on port 9 of 127.0.0.1). */
const downChain = blockchainIdFor(31209);

beforeAll(async () => {
  [a, b] = await startTestChains(31201, 31202);
  service = await startLocalService({
    rate: 0,
    warmStore: false,
    log: () => undefined,
    ownNodes: {
      chains: [
        chainConfig(a),
        chainConfig(b),
        { rpcUrl: 'http://127.0.0.1:9/rpc?key=secret-provider-key', blockchainId: downChain.cb58, evmChainId: '31209', name: 'Gone', network: 'fuji' },
      ],
      confirmations: 0,
      pollIntervalMs: 100,
      requestTimeoutMs: 2_000,
    },
  });
  rig = sdkFor(service.url);
  relayer = new TestRelayer([a, b]);
});
afterAll(async () => {
  await service?.close();
  await Promise.all([a, b].map((x) => x?.node.stop()));
});

const getNative = (req: { chainId: string; address: string; blockNumber?: string }) => rig.sdk.data.evm.address.balances.getNative(req, rig.opts);
const ZERO: Address = '0x0000000000000000000000000000000000000000';

describe('balances:getNative on own nodes', () => {
  it("answers the node's balance at the latest block, found by EVM chain ID or blockchain ID", async () => {
    const who = '0x00000000000000000000000000000000000b0b01';
    await a.client.request({ method: 'anvil_setBalance' as never, params: [who, '0x1d6f5a2c3b4e'] as never });
    const byEvm = await getNative({ chainId: '31201', address: who });
    expect(byEvm.nativeTokenBalance).toMatchObject({ balance: String(0x1d6f5a2c3b4en), chainId: '31201', decimals: 18 });
    // Own nodes know no price: none is made up.
    expect(byEvm.nativeTokenBalance.price).toBeUndefined();
    expect(byEvm.nativeTokenBalance.balanceValue).toBeUndefined();
    const byCb58 = await getNative({ chainId: a.blockchainId, address: who, blockNumber: '1' });
    expect(byCb58.nativeTokenBalance.balance).toBe(String(0x1d6f5a2c3b4en));
    // The same address on the other chain holds what that chain says.
    expect((await getNative({ chainId: '31202', address: who })).nativeTokenBalance.balance).toBe('0');
  });

  it("follows a relayer's wallet as its deliveries pay gas", async () => {
    const wallet = b.wallet('relayer').account.address;
    const before = BigInt((await getNative({ chainId: '31202', address: wallet })).nativeTokenBalance.balance);
    expect(before).toBe(await b.client.getBalance({ address: wallet }));
    const sent = await sendMessage(a, b);
    await relayer.deliverAll();
    const receipt = await b.client.getTransactionReceipt({ hash: relayer.delivered.get(sent.messageId)! });
    const after = BigInt((await getNative({ chainId: '31202', address: wallet })).nativeTokenBalance.balance);
    expect(before - after).toBe(receipt.gasUsed * receipt.effectiveGasPrice);
  });

  it("refuses an unknown chain (404) and bad input (400) with the Data API's bodies", async () => {
    await expect(getNative({ chainId: '43114', address: ZERO })).rejects.toBeInstanceOf(errors.NotFound);
    await expect(getNative({ chainId: 'not-a-chain', address: ZERO })).rejects.toBeInstanceOf(errors.BadRequest);
    await expect(getNative({ chainId: '31201', address: '0x1234' })).rejects.toBeInstanceOf(errors.BadRequest);
    const res = await fetch(`${service.url}/v1/chains/43114/addresses/${ZERO}/balances:getNative`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { message: string[]; statusCode: number; error: string };
    expect(body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    expect(body.message[0]).toContain('is not one of your own nodes');
    expect(body.message[0]).toContain('(31201)');
  });

  it('finds a chain by EVM chain ID before the indexer has heard it: the lookup asks the node, and says which nodes never told', async () => {
    const config = OwnNodesSchema.parse({
      chains: [chainConfig(a), { rpcUrl: 'http://127.0.0.1:9/rpc', blockchainId: blockchainIdFor(31208).cb58, name: 'Silent', network: 'fuji' }],
      requestTimeoutMs: 2_000,
    });
    const reads = new OwnNodeReads(config, () => null);
    const found = await reads.chain('31201');
    expect(found).toMatchObject({ ok: true, chain: { evmChainId: '31201' } });
    const missing = await reads.chain('31208');
    expect(missing).toMatchObject({ ok: false, status: 404 });
    expect(!missing.ok && missing.error).toContain(`Silent (${blockchainIdFor(31208).cb58}, EVM chain ID not reported)`);
  });

  it("says a node that is down is down (502), naming its host and never its URL's key", async () => {
    const res = await fetch(`${service.url}/v1/chains/31209/addresses/${ZERO}/balances:getNative`);
    expect(res.status).toBe(502);
    const body = (await res.json()) as { message: string[] };
    expect(body.message[0]).toMatch(/^Gone's node \(127\.0\.0\.1:9\) did not answer eth_getBalance: The node cannot be reached/);
    expect(JSON.stringify(body)).not.toContain('secret-provider-key');
  });
});

describe('/_local/relayer-rewards on own nodes', () => {
  /** Answered EIP-55 checksummed, as the service gives every address. */
  const feeToken: Address = getAddress('0x000000000000000000000000000000000000fee1');
  const rewards = async (chainId: string, who: string, ...tokens: string[]) => {
    const q = new URLSearchParams({ chainId, relayer: who });
    for (const t of tokens) q.append('feeToken', t);
    const res = await fetch(`${service.url}/_local/relayer-rewards?${q.toString()}`);
    return { status: res.status, body: (await res.json()) as { rewards?: { feeToken: string; amount: string }[]; message?: string[] } };
  };

  it('a fee becomes redeemable when its receipt is back, and 0 once redeemed', async () => {
    const reward = b.wallet('relayer').account.address; // the test relayer names itself as reward address
    const start = await rewards(a.blockchainId, reward, feeToken, ZERO);
    expect(start.body.rewards).toEqual([
      { feeToken, amount: '0' },
      { feeToken: ZERO, amount: '0' },
    ]);

    const sent = await sendMessage(a, b, { fee: 4_250n, feeToken });
    await relayer.deliverAll();
    await recordWhen(service, sent.messageId, (r) => r.status === 'delivered');
    // Delivered, receipt not back: owed, not redeemable.
    expect((await rewards('31201', reward, feeToken)).body.rewards).toEqual([{ feeToken, amount: '0' }]);

    await sendSpecifiedReceipts(b, a, [sent.messageId]);
    await relayer.deliverAll();
    await recordWhen(service, sent.messageId, (r) => r.receiptDelivered === true);
    const owed = await rewards('31201', reward, feeToken);
    expect(owed.body.rewards).toEqual([{ feeToken, amount: '4250' }]);
    // The same figure the messenger gives a direct call.
    const { abi } = compileTestMessenger();
    const direct = await a.client.readContract({ address: a.messenger, abi, functionName: 'checkRelayerRewardAmount', args: [reward, feeToken] });
    expect(direct).toBe(4_250n);

    const w = a.wallet('relayer');
    const hash = await w.client.writeContract({
      address: a.messenger,
      abi,
      functionName: 'redeemRelayerRewards',
      args: [feeToken],
      account: w.account,
      chain: w.client.chain,
    });
    expect((await a.client.waitForTransactionReceipt({ hash })).status).toBe('success');
    expect((await rewards('31201', reward, feeToken)).body.rewards).toEqual([{ feeToken, amount: '0' }]);
  });

  it('refuses bad input (400), an unknown chain (404) and says a node that is down (502)', async () => {
    const bad = await rewards('31201', '0x12', 'nope');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual(['relayer must be 0x followed by 40 hex digits (got 2).', 'feeToken must start with 0x.']);
    expect((await rewards('31201', ZERO)).status).toBe(400);
    expect((await rewards('43114', ZERO, feeToken)).status).toBe(404);
    const down = await rewards('31209', ZERO, feeToken);
    expect(down.status).toBe(502);
    expect(down.body.message![0]).toContain('did not answer eth_call');
  });
});
