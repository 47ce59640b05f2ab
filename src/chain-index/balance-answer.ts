/**
 * The balance operation (`balances:getNative`) answered from your own nodes: `eth_getBalance` at the
 * chain's latest block, in the Data API's GetNativeBalanceResponse shape. Own nodes know no prices,
 * so the answer carries none (the fuel panel says "(no price)"); a `blockNumber` is validated but the
 * latest balance is answered, as the simulator does.
 */
import type { Address } from 'viem';
import { chainByBlockchainId } from '../shared/chains';
import { parseEvmAddress } from '../shared/validators';
import { balanceBody, checkBalanceQuery, type BalanceAnswer, type BalancePath } from '../local-service/native-balance';
import { NodeReadError, type OwnNodeReads } from './node-reads';

export async function answerOwnNodeBalance(reads: OwnNodeReads, path: BalancePath, params: URLSearchParams): Promise<BalanceAnswer> {
  const lookup = await reads.chain(path.chainId);
  const address = parseEvmAddress(path.address, 'address');
  const errors = [...(lookup.ok || lookup.status === 404 ? [] : [lookup.error]), ...(address.ok ? [] : [address.error]), ...checkBalanceQuery(params).errors];
  if (errors.length > 0 || !address.ok) return { ok: false, status: 400, errors };
  if (!lookup.ok) return { ok: false, status: lookup.status, errors: [lookup.error] };
  const chain = lookup.chain;
  try {
    const wei = await reads.balance(chain, address.value as Address);
    const symbol = chainByBlockchainId(chain.cfg.blockchainId)?.nativeSymbol;
    const token = { name: symbol ?? `${chain.name} native token`, symbol: symbol ?? 'native', chainId: chain.evmChainId ?? chain.cfg.blockchainId };
    return { ok: true, body: balanceBody(token, wei, undefined) };
  } catch (e) {
    if (e instanceof NodeReadError) return { ok: false, status: e.status, errors: [e.message] };
    throw e;
  }
}
