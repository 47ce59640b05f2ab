/** Reading the Data API's native-balance answer (`balances:getNative`): the balance in wei and the token's USD price if given. */
import { z } from 'zod';
import type { ApiResult } from './response-body';

export interface NativeBalance {
  /** EVM chain ID the API names. */
  chainId: string;
  symbol: string;
  decimals: number;
  /** Smallest units (wei for 18 decimals). */
  balance: bigint;
  /** USD per whole token, when the API gives a USD price. */
  usdPrice?: number;
  /** When it was read (clock ms). */
  readAt: number;
}

const Money = z.object({ currencyCode: z.string().max(16), value: z.number().nonnegative() });
// Texts capped as a record's are (record-bounds.ts): they are kept with the wallet's figures and shown.
const BodySchema = z.object({
  nativeTokenBalance: z.looseObject({
    chainId: z.string().max(100),
    symbol: z.string().max(100),
    decimals: z.number().int().min(0).max(36),
    balance: z.string().regex(/^\d{1,80}$/),
    price: Money.optional(),
  }),
});

export function parseNativeBalanceBody(text: string, host: string, now: number): ApiResult<NativeBalance> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, error: { kind: 'invalid_response', message: `${host} sent a balance that is not JSON.` } };
  }
  const r = BodySchema.safeParse(raw);
  if (!r.success)
    return {
      ok: false,
      error: { kind: 'invalid_response', message: `${host} sent a balance without nativeTokenBalance { chainId, symbol, decimals, balance }.` },
    };
  const b = r.data.nativeTokenBalance;
  const value: NativeBalance = { chainId: b.chainId, symbol: b.symbol, decimals: b.decimals, balance: BigInt(b.balance), readAt: now };
  if (b.price && b.price.currencyCode.toLowerCase() === 'usd') value.usdPrice = b.price.value;
  return { ok: true, value };
}
