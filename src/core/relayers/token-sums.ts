/** Sums of rewards by token and of gas by destination chain, exact in smallest units. */
import type { GasSum, TokenSum } from '../../shared/relayers';
import { tokenPriceValue } from '../../shared/format';
import type { Delivery } from './delivery-record';

interface TokenAcc {
  token: string;
  symbol: string;
  decimals: number;
  value: bigint;
  fiat: { currencyCode: string; value: number } | null;
  /** A record without a price (or in another currency) was counted: the fiat sum would understate. */
  unpriced: boolean;
}

/**
 * Rewards by token (contract address, case-insensitive). Amounts add in smallest units; the fiat value
 * adds each record's amount at its own price, and is null unless every counted record carried one in
 * the same currency. Zero rewards count (they carry a token) but add nothing.
 */
export function rewardsByToken(deliveries: Iterable<Delivery>): TokenSum[] {
  const by = new Map<string, TokenAcc>();
  for (const d of deliveries) {
    const r = d.reward;
    if (!r) continue;
    const key = r.token.toLowerCase();
    let acc = by.get(key);
    if (!acc) {
      acc = { token: r.token, symbol: r.symbol, decimals: r.decimals, value: 0n, fiat: null, unpriced: false };
      by.set(key, acc);
    }
    acc.value += r.value;
    const worth = r.price ? tokenPriceValue(r.value.toString(), r.decimals, r.price.value) : null;
    if (worth === null || !r.price || (acc.fiat && acc.fiat.currencyCode !== r.price.currencyCode)) acc.unpriced = true;
    else acc.fiat = { currencyCode: r.price.currencyCode, value: (acc.fiat?.value ?? 0) + worth };
  }
  return [...by.values()]
    .map((a) => ({ token: a.token, symbol: a.symbol, decimals: a.decimals, value: a.value.toString(), fiat: a.unpriced ? null : a.fiat }))
    .sort((a, b) => a.symbol.localeCompare(b.symbol) || a.token.localeCompare(b.token));
}

/** Gas spent on destination transactions, by destination chain (each in its own native token). */
export function gasByChain(deliveries: Iterable<Delivery>): GasSum[] {
  const by = new Map<string, { symbol: string; wei: bigint }>();
  for (const d of deliveries) {
    if (d.gasWei === null) continue;
    const acc = by.get(d.destinationChain) ?? { symbol: d.gasSymbol, wei: 0n };
    acc.wei += d.gasWei;
    by.set(d.destinationChain, acc);
  }
  return [...by].map(([chain, a]) => ({ chain, symbol: a.symbol, wei: a.wei.toString() })).sort((a, b) => a.chain.localeCompare(b.chain));
}
