import { describe, expect, it } from 'vitest';
import type { Delivery } from '../../../src/core/relayers/delivery-record';
import { GasSums, RewardSums } from '../../../src/core/relayers/token-sums';
import { BEAM, C_CHAIN, randomAddress } from '../helpers';
import { delivery, NOW } from './records';

/** The sums of these deliveries, added one at a time. */
function rewardsByToken(ds: Delivery[]) {
  const sums = new RewardSums();
  ds.forEach((d) => sums.add(d));
  return sums.sums();
}

function gasByChain(ds: Delivery[]) {
  const sums = new GasSums();
  ds.forEach((d) => sums.add(d));
  return sums.sums();
}

const WAVAX = { token: '0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7', symbol: 'WAVAX', decimals: 18 };
const USDC = { token: '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E', symbol: 'USDC', decimals: 6 };

describe('rewards and gas', () => {
  const a = randomAddress();
  const at = (reward: Parameters<typeof delivery>[0]['reward'], gasSpent = '1000', destination = BEAM) =>
    delivery({ deliverer: a, sentAt: NOW - 10_000, deliveredAt: NOW, reward, gasSpent, destination });

  it('adds rewards per token exactly in smallest units, whatever the decimals, with the fiat value at each record price', () => {
    const sums = rewardsByToken([
      // 0.1 + 0.2 WAVAX at 18 decimals: exact as integers (0.30000000000000004 in floating point).
      at({ ...WAVAX, value: '100000000000000000', price: 20 }),
      at({ ...WAVAX, token: WAVAX.token.toLowerCase(), value: '200000000000000000', price: '30' }),
      at({ ...USDC, value: '1500000', price: 1 }),
      at({ ...USDC, value: '0', price: 1 }),
    ]);
    expect(sums).toEqual([
      { token: USDC.token, symbol: 'USDC', decimals: 6, value: '1500000', fiat: { currencyCode: 'usd', value: 1.5 } },
      {
        token: WAVAX.token,
        symbol: 'WAVAX',
        decimals: 18,
        value: '300000000000000000',
        fiat: { currencyCode: 'usd', value: expect.closeTo(0.1 * 20 + 0.2 * 30, 9) },
      },
    ]);
  });

  it('gives no fiat value when a counted record has no price or another currency (never an understated sum)', () => {
    expect(rewardsByToken([at({ ...USDC, value: '1000000', price: 1 }), at({ ...USDC, value: '1000000' })])[0]).toMatchObject({ value: '2000000', fiat: null });
    expect(rewardsByToken([at({ ...USDC, value: '1', price: 1 }), at({ ...USDC, value: '1', price: 1, currency: 'eur' })])[0]!.fiat).toBeNull();
  });

  it('adds gas per destination chain in its native token', () => {
    const big = (10n ** 30n).toString();
    expect(gasByChain([at(undefined, big), at(undefined, '5'), at(undefined, '7', C_CHAIN)])).toEqual([
      { chain: C_CHAIN, symbol: 'AVAX', wei: '7' },
      { chain: BEAM, symbol: 'BEAM', wei: (10n ** 30n + 5n).toString() },
    ]);
  });
});
