/**
 * The balance operation in the simulated world: a relayer's simulated gas wallet on a chain. `blockNumber`
 * is validated but the latest balance is answered (the simulator keeps no per-block history); prices
 * are in USD only (another currency: no price).
 */
import { chainByBlockchainId, chainByEvmChainId } from '../shared/chains';
import { parseChainRef, parseEvmAddress } from '../shared/validators';
import { balanceBody, checkBalanceQuery, type BalanceAnswer, type BalancePath } from '../local-service/native-balance';
import { nativeUsd, type RelayerWallets } from './wallets';

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
