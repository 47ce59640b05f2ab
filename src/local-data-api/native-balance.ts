/**
 * `GET /v1/chains/{chainId}/addresses/{address}/balances:getNative` (the SDK's
 * `data.evm.address.balances.getNative`): a relayer's simulated gas wallet on a chain, in the
 * GetNativeBalanceResponse shape. `blockNumber` is validated but the latest balance is answered (the
 * simulator keeps no per-block history); prices are in USD only (another currency: no price).
 */
import { chainByBlockchainId, chainByEvmChainId } from '../shared/chains';
import { parseChainRef, parseEvmAddress } from '../shared/validators';
import type { RelayerWallets } from '../simulator/wallets';
import { nativeUsd } from '../simulator/wallets';

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

export function answerNativeBalance(wallets: RelayerWallets, path: BalancePath, params: URLSearchParams, now: number): BalanceAnswer {
  const errors: string[] = [];
  const ref = parseChainRef(path.chainId, 'chainId');
  const chain = ref.ok ? (ref.value.kind === 'evmChainId' ? chainByEvmChainId(ref.value.value) : chainByBlockchainId(ref.value.value)) : undefined;
  if (!ref.ok) errors.push(ref.error);
  else if (!chain) errors.push(`chainId "${path.chainId}" is not a supported chain.`);
  const address = parseEvmAddress(path.address, 'address');
  if (!address.ok) errors.push(address.error);
  const query = checkBalanceQuery(params);
  errors.push(...query.errors);
  if (errors.length > 0 || !chain || !address.ok) return { ok: false, status: 400, errors };

  const wei = wallets.balanceOf(address.value, chain.blockchainId, now);
  const usd = query.currency === 'usd' ? nativeUsd(chain) : undefined;
  return { ok: true, body: balanceBody({ name: chain.nativeSymbol, symbol: chain.nativeSymbol, chainId: chain.evmChainId }, wei, usd) };
}
