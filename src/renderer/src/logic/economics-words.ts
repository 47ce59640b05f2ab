import { formatDuration, formatMoney, formatTokenAmount, tokenPriceValue } from '../../../shared/format';
import type { RelayerFuel, RouteEarnings, TokenSum } from '../../../shared/relayers';
import { timeToEmptyWords } from '../../../shared/time-to-empty';

/** The earnings table's window: the last hour or the last 24 h. */
export type EarningsWindow = 'hour' | 'day';

/** Fuel and gas keep this many significant fraction digits: small amounts never round to a misleading 0. */
const SIGNIFICANT = 4;

function significant(amount: string): string {
  const [whole, frac = ''] = amount.split('.');
  if (!frac) return amount;
  const lead = whole === '0' ? (/^0*/.exec(frac)?.[0].length ?? 0) : 0;
  const kept = frac.slice(0, lead + SIGNIFICANT).replace(/0+$/, '');
  return kept ? `${whole}.${kept}` : (whole ?? amount);
}

/** An amount in smallest units as "1.2345 AVAX" (its own decimals, significant digits kept). */
export const unitsWords = (value: string, decimals: number, symbol: string): string => `${significant(formatTokenAmount(value, decimals, decimals))} ${symbol}`;

/** The dollar value of an amount at a price, "$12.34"; null when no price is known. */
export const usdOf = (value: string, decimals: number, usdPrice: number | null): number | null =>
  usdPrice === null ? null : tokenPriceValue(value, decimals, usdPrice);

/** The smallest dollar figure shown as such: below it a non-zero amount says "< $0.0001", never "$0.00". */
const SMALLEST_USD = 0.0001;

/** A dollar figure, "—" when unknown. */
export const usdWords = (usd: number | null): string =>
  usd !== null && usd > 0 && usd < SMALLEST_USD ? `< ${formatMoney(SMALLEST_USD, 'USD')}` : formatMoney(usd, 'USD');

/** A reward sum in its unit with its dollar value beside it where the records carried a price. */
export const tokenSumWords = (t: TokenSum): string =>
  `${unitsWords(t.value, t.decimals, t.symbol)}` + (t.fiat ? ` (${formatMoney(t.fiat.value, t.fiat.currencyCode)})` : '');

/** Hours to empty in words, as the fuel alert and the metric say it ("about 40 min", "more than a year"). */
export const hoursToEmptyWords = timeToEmptyWords;

/** The hours a day rate is over: "over 24 h", "over 1 h 10 min" on a first day. */
export const burnHoursWords = (hours: number): string => (hours >= 24 ? 'over 24 h' : `over ${formatDuration(hours * 3600)}`);

/** The dollars of the owed rewards that carried a price (null: none did). */
export function owedUsd(e: Pick<RouteEarnings, 'owed'>): number | null {
  const priced = e.owed.filter((t) => t.fiat && t.fiat.currencyCode === 'usd');
  return priced.length ? priced.reduce((s, t) => s + t.fiat!.value, 0) : null;
}

/** Each chain's native token price in USD from the balance reads (the fuel rows), for gas shown elsewhere. */
export function nativeUsdByChain(fuel: readonly Pick<RelayerFuel, 'blockchainId' | 'usdPrice'>[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of fuel) if (f.usdPrice !== null) out.set(f.blockchainId, f.usdPrice);
  return out;
}

/**
 * Why a route's profit is unknown: the tokens whose price is missing (paid rewards without a price,
 * gas without the native token's price). Empty when the profit is known.
 */
function missingPrices(e: Pick<RouteEarnings, 'paid' | 'gasUsd' | 'gasSymbol' | 'profitUsd'>): string[] {
  if (e.profitUsd !== null) return [];
  const missing = e.paid.filter((t) => !t.fiat).map((t) => t.symbol);
  if (e.gasUsd === null) missing.push(e.gasSymbol);
  return [...new Set(missing)];
}

/** The tooltip of an unknown profit: which price is missing. */
export function profitTooltip(e: Pick<RouteEarnings, 'paid' | 'gasUsd' | 'gasSymbol' | 'profitUsd'>): string | null {
  if (e.profitUsd !== null) return null;
  const missing = missingPrices(e);
  return missing.length ? `No price known for ${missing.join(', ')}: profit cannot be computed.` : 'A price is missing: profit cannot be computed.';
}
