import { chainByBlockchainId, chainByEvmChainId } from './chains';
import { formatMoney, formatTokenAmount, tokenPriceValue } from './format';

/** A token's price as a record carries it (the reward token's, in the Data API). */
export interface TokenPrice {
  symbol: string;
  value: string | number;
  currencyCode: string;
}

/** EVM native tokens have 18 decimals. */
const NATIVE_DECIMALS = 18;
/** Gas is small: its fraction keeps this many significant digits (never rounded to a misleading 0). */
const GAS_SIGNIFICANT = 4;

function significant(amount: string): string {
  const [whole, frac = ''] = amount.split('.');
  if (!frac) return amount;
  const lead = whole === '0' ? (/^0*/.exec(frac)?.[0].length ?? 0) : 0;
  const kept = frac.slice(0, lead + GAS_SIGNIFICANT).replace(/0+$/, '');
  return kept ? `${whole}.${kept}` : (whole ?? amount);
}

/** The native token of a chain (cb58 or EVM chain ID) from the registry; unknown chains say so rather than guess. */
const nativeSymbolOf = (chain: string | undefined): string | null =>
  (chain ? (chainByBlockchainId(chain) ?? chainByEvmChainId(chain))?.nativeSymbol : undefined) ?? null;

/** An amount of a native token in wei, as "0.00042 AVAX" (significant digits kept). */
export const nativeAmount = (wei: string, symbol: string): string => `${significant(formatTokenAmount(wei, NATIVE_DECIMALS, NATIVE_DECIMALS))} ${symbol}`;

/**
 * Gas spent in the chain's native token, "0.00042 AVAX", with its value where a price of that same
 * token is known ("0.00042 AVAX (≈ $0.0126)"). Raw wei never reaches a view.
 */
export function gasWords(wei: string | undefined, chain: string | undefined, price?: TokenPrice | null): string {
  if (wei === undefined || !/^\d+$/.test(wei)) return wei ?? '—';
  const symbol = nativeSymbolOf(chain);
  const amount = nativeAmount(wei, symbol ?? 'native token');
  if (!symbol || !price || price.symbol !== symbol) return amount;
  const value = tokenPriceValue(wei, NATIVE_DECIMALS, price.value);
  return value === null ? amount : `${amount} (≈ ${formatMoney(value, price.currencyCode)})`;
}
