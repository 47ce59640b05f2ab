/**
 * The native-balance operation (`balances:getNative`) with the official SDK as a client of the real
 * service: the demo relayers' simulated wallets (src/simulator/wallets.ts) against the records in the SQLite
 * store, the dry wallet, the API's 400 bodies, and the service's rate limit counting these calls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as errors from '@avalabs/avacloud-sdk/models/errors/index.js';
import { ManualClock } from '../../src/shared/clock';
import { CHAIN_REGISTRY, chainByBlockchainId } from '../../src/shared/chains';
import { startLocalService, type SimulatedService } from '../../src/local-service/index';
import { sdkFor, type SdkRig } from '../local-service/sdk-client';
import { WALLET_WORLD } from '../core/relayers/wallet-world';

const KEY = 'native-balance-key-0123456789';
let service: SimulatedService;
let rig: SdkRig;
const clock = new ManualClock();

beforeAll(async () => {
  service = await startLocalService({ clock, ...WALLET_WORLD, apiKeys: [KEY] });
  rig = sdkFor(service.url, KEY);
});
afterAll(() => service.close());

/** Wei the store's delivered records say `relayer` spent on `chain`: what the wallet must have paid. */
function spentInRecords(relayer: string, blockchainId: string): { wei: bigint; count: number } {
  let wei = 0n;
  let count = 0;
  let before: number | undefined;
  for (;;) {
    const page = service.store.page({ destination: { kind: 'blockchainId', value: blockchainId } }, before, 1000);
    for (const raw of page.records) {
      const r = JSON.parse(raw) as { status: string; destinationTransaction?: { gasSpent: string; delivererAddress: string } };
      const tx = r.destinationTransaction;
      if (r.status !== 'pending' && tx && tx.delivererAddress.toLowerCase() === relayer) {
        wei += BigInt(tx.gasSpent);
        count++;
      }
    }
    if (!page.hasMore) return { wei, count };
    before = page.positions[page.positions.length - 1];
  }
}

const getNative = (req: { chainId: string; address: string; blockNumber?: string }) => rig.sdk.data.evm.address.balances.getNative(req, rig.opts);

describe('balances:getNative through the SDK', () => {
  it('answers every wallet the simulator holds, and each wallet paid exactly the gas its delivered records show', async () => {
    const truth = service.simulator.wallets.truth(service.simulator.now());
    expect(truth.length).toBeGreaterThan(6);
    for (const w of truth) {
      const chain = chainByBlockchainId(w.blockchainId)!;
      const res = await getNative({ chainId: chain.evmChainId, address: w.relayer });
      expect(res.nativeTokenBalance.balance).toBe(w.balance);
      expect(res.nativeTokenBalance.symbol).toBe(chain.nativeSymbol);
      expect(res.nativeTokenBalance.chainId).toBe(chain.evmChainId);
      expect(BigInt(w.initial) + BigInt(w.refilled) - BigInt(w.spent)).toBe(BigInt(w.balance));
      const records = spentInRecords(w.relayer, w.blockchainId);
      expect(records).toEqual({ wei: BigInt(w.spent), count: w.deliveries });
    }
  });

  it('prices mainnet gas in USD with the balance value; testnet tokens have no price', async () => {
    const w = service.simulator.wallets.truth(service.simulator.now()).find((x) => chainByBlockchainId(x.blockchainId)!.name === 'C-Chain')!;
    const chain = chainByBlockchainId(w.blockchainId)!;
    const res = await getNative({ chainId: chain.blockchainId, address: w.relayer, blockNumber: '123' });
    if (chain.network === 'mainnet') {
      expect(res.nativeTokenBalance.price).toEqual({ currencyCode: 'usd', value: 24.87 });
      expect(res.nativeTokenBalance.balanceValue!.value).toBeCloseTo((Number(w.balance) / 1e18) * 24.87, 6);
    }
    const fuji = CHAIN_REGISTRY.chains.find((c) => c.network === 'fuji')!;
    const none = await getNative({ chainId: fuji.evmChainId, address: w.relayer });
    expect(none.nativeTokenBalance.price).toBeUndefined();
  });

  it('an address without a wallet holds 0', async () => {
    const res = await getNative({ chainId: '43114', address: '0x000000000000000000000000000000000000dEaD' });
    expect(res.nativeTokenBalance.balance).toBe('0');
  });

  it('the dry wallet ran out: deliveries waited for a refill', async () => {
    const dry = service.simulator.wallets.dry!;
    expect(dry).not.toBeNull();
    const w = service.simulator.wallets.truth(service.simulator.now()).find((x) => x.relayer === dry.relayer && x.blockchainId === dry.blockchainId)!;
    expect(w.postponed).toBeGreaterThan(0);
    expect(BigInt(w.refilled)).toBeGreaterThan(0n);
    expect(BigInt(w.balance)).toBeLessThanOrEqual(BigInt(w.target));
    // It could not pay in some periods (once each), and never paid more than it had been given.
    expect(w.stalls.length).toBeGreaterThan(0);
    expect(BigInt(w.spent)).toBe(BigInt(w.initial) + BigInt(w.refilled) - BigInt(w.balance));
  });
});

describe('validation and rate limit', () => {
  it("bad chain IDs and addresses get the API's 400 body through the SDK's BadRequest", async () => {
    await expect(getNative({ chainId: '999999999', address: '0x000000000000000000000000000000000000dEaD' })).rejects.toBeInstanceOf(errors.BadRequest);
    await expect(getNative({ chainId: 'not-a-chain', address: '0x000000000000000000000000000000000000dEaD' })).rejects.toBeInstanceOf(errors.BadRequest);
    await expect(getNative({ chainId: '43114', address: '0x1234' })).rejects.toBeInstanceOf(errors.BadRequest);
    const res = await fetch(`${service.url}/v1/chains/43114/addresses/0xzz/balances:getNative?currency=xyz&blockNumber=-1`, {
      headers: { 'x-glacier-api-key': KEY },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string[]; statusCode: number; error: string };
    expect(body.statusCode).toBe(400);
    expect(body.error).toBe('Bad Request');
    expect(body.message).toEqual([
      'address must be 0x followed by 40 hex digits (got 2).',
      'blockNumber must be a whole block number in decimal.',
      expect.stringMatching(/^currency must be one of usd, eur/),
    ]);
  });

  it("counts in the service's rate limit: a caller over its limit gets 429", async () => {
    const limited = await startLocalService({ clock: new ManualClock(), rate: 0, rateLimitPerMinute: { keyed: 3, anonymous: 3 } });
    try {
      const url = `${limited.url}/v1/chains/43114/addresses/0x000000000000000000000000000000000000dEaD/balances:getNative`;
      const remaining: string[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await fetch(url);
        expect(r.status).toBe(200);
        remaining.push(r.headers.get('ratelimit-remaining') ?? '');
        await r.arrayBuffer();
      }
      // Counted in compute units as the public API does: 3 requests a minute are 60 CU, each call Medium (20).
      expect(remaining).toEqual(['40', '20', '0']);
      const over = await fetch(url);
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
