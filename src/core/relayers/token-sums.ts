/** Sums of rewards by token and of gas by destination chain, exact in smallest units, added one delivery at a time. */
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
 * adds each record's amount at its own price, in the order added, and is null unless every counted
 * record carried one in the same currency. Zero rewards count (they carry a token) but add nothing.
 */
export class RewardSums {
  private readonly by = new Map<string, TokenAcc>();

  add(d: Delivery): void {
    const r = d.reward;
    if (!r) return;
    const key = r.token.toLowerCase();
    let acc = this.by.get(key);
    if (!acc) {
      acc = { token: r.token, symbol: r.symbol, decimals: r.decimals, value: 0n, fiat: null, unpriced: false };
      this.by.set(key, acc);
    }
    acc.value += r.value;
    const worth = r.price ? tokenPriceValue(r.value.toString(), r.decimals, r.price.value) : null;
    if (worth === null || !r.price || (acc.fiat && acc.fiat.currencyCode !== r.price.currencyCode)) acc.unpriced = true;
    else acc.fiat = { currencyCode: r.price.currencyCode, value: (acc.fiat?.value ?? 0) + worth };
  }

  sums(): TokenSum[] {
    return [...this.by.values()]
      .map((a) => ({ token: a.token, symbol: a.symbol, decimals: a.decimals, value: a.value.toString(), fiat: a.unpriced ? null : a.fiat }))
      .sort((a, b) => a.symbol.localeCompare(b.symbol) || a.token.localeCompare(b.token));
  }
}

/** Gas spent on destination transactions, by destination chain (each in its own native token). */
export class GasSums {
  private readonly by = new Map<string, { symbol: string; wei: bigint }>();

  add(d: Delivery): void {
    if (d.gasWei === null) return;
    const acc = this.by.get(d.destinationChain) ?? { symbol: d.gasSymbol, wei: 0n };
    acc.wei += d.gasWei;
    this.by.set(d.destinationChain, acc);
  }

  sums(): GasSum[] {
    return [...this.by].map(([chain, a]) => ({ chain, symbol: a.symbol, wei: a.wei.toString() })).sort((a, b) => a.chain.localeCompare(b.chain));
  }
}
