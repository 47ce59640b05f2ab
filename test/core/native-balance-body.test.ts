/** The native-balance answer is bounded like a record (issue 41): its texts capped, its price a number ≥ 0. */
import { describe, expect, it } from 'vitest';
import { parseNativeBalanceBody } from '../../src/core/data-api/native-balance';

const body = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    nativeTokenBalance: { chainId: '43114', symbol: 'AVAX', decimals: 18, balance: '1000', price: { currencyCode: 'usd', value: 20 }, ...over },
  });
const parse = (text: string) => parseNativeBalanceBody(text, 'api.example', 5);

describe('parseNativeBalanceBody', () => {
  it('reads a balance and its USD price', () => {
    expect(parse(body())).toEqual({ ok: true, value: { chainId: '43114', symbol: 'AVAX', decimals: 18, balance: 1000n, usdPrice: 20, readAt: 5 } });
  });

  it('refuses a symbol or chain ID no token has, and a negative price', () => {
    for (const over of [{ symbol: 'A'.repeat(101) }, { chainId: '9'.repeat(101) }, { price: { currencyCode: 'usd', value: -1 } }])
      expect(parse(body(over)), JSON.stringify(over).slice(0, 40)).toMatchObject({ ok: false, error: { kind: 'invalid_response' } });
  });
});
