/**
 * `GET /v1/chains/{chainId}/addresses/{address}/balances:getNative` (the SDK's
 * `data.evm.address.balances.getNative`), the parts every world shares: the path, the query's checks
 * and the GetNativeBalanceResponse body. Each world reads the balance its own way
 * (src/simulator/wallet-balance.ts, src/chain-index/balance-answer.ts).
 */
const PATH_RE = /^\/v1\/chains\/([^/]+)\/addresses\/([^/]+)\/balances:getNative\/?$/;
/** The SDK's CurrencyCode values. */
const CURRENCIES = new Set(['usd', 'eur', 'aud', 'cad', 'chf', 'clp', 'cny', 'czk', 'dkk', 'gbp', 'hkd', 'huf', 'jpy', 'nzd']);

export interface BalancePath {
  chainId: string;
  address: string;
}

/** The path's chain and address (still to validate), or null when it is not this operation. */
export function matchBalancePath(pathname: string): BalancePath | null {
  const m = PATH_RE.exec(pathname.replace('%3A', ':').replace('%3a', ':'));
  return m ? { chainId: decode(m[1]!), address: decode(m[2]!) } : null;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export type BalanceAnswer = { ok: true; body: string } | { ok: false; status: 400 | 404 | 502 | 503 | 504; errors: string[] };

/** The query's problems (blockNumber, currency), as the Data API words them; and the currency asked. */
export function checkBalanceQuery(params: URLSearchParams): { errors: string[]; currency: string } {
  const errors: string[] = [];
  for (const name of ['blockNumber', 'currency']) if (params.getAll(name).length > 1) errors.push(`${name} must be given at most once.`);
  const block = params.get('blockNumber');
  if (block !== null && !/^\d{1,20}$/.test(block)) errors.push('blockNumber must be a whole block number in decimal.');
  const currency = params.get('currency') ?? 'usd';
  if (!CURRENCIES.has(currency)) errors.push(`currency must be one of ${[...CURRENCIES].join(', ')}.`);
  return { errors, currency };
}

/** The GetNativeBalanceResponse body; the price and value only when a USD price is known. */
export function balanceBody(token: { name: string; symbol: string; chainId: string }, wei: bigint, usd: number | undefined): string {
  const price =
    usd === undefined ? {} : { price: { currencyCode: 'usd', value: usd }, balanceValue: { currencyCode: 'usd', value: (Number(wei) / 1e18) * usd } };
  return JSON.stringify({
    nativeTokenBalance: { name: token.name, symbol: token.symbol, decimals: 18, chainId: token.chainId, ...price, balance: wei.toString() },
  });
}
