/**
 * `GET /_local/relayer-rewards?chainId=…&relayer=0x…&feeToken=0x…[&feeToken=…]` (own nodes only; not a
 * Data API operation, the public API has none): what the relayer may redeem from the chain's
 * messenger in each fee token, read with `checkRelayerRewardAmount` at the latest block. Answers
 * `{ chainId, relayer, rewards: [{ feeToken, amount }] }`, amounts in the token's smallest unit.
 */
import type { Address } from 'viem';
import { parseEvmAddress } from '../shared/validators';
import type { LocalAnswer } from '../local-service/world';
import { NodeReadError, type OwnNodeReads } from './node-reads';

/** Fee tokens one request may name (each is one eth_call per messenger). */
const MAX_FEE_TOKENS = 20;

export async function answerRelayerRewards(reads: OwnNodeReads, params: URLSearchParams): Promise<LocalAnswer> {
  const errors: string[] = [];
  for (const name of ['chainId', 'relayer']) if (params.getAll(name).length !== 1) errors.push(`${name} must be given once.`);
  const lookup = await reads.chain(params.get('chainId') ?? '');
  if (!lookup.ok && lookup.status === 400) errors.push(lookup.error);
  const relayer = parseEvmAddress(params.get('relayer') ?? '', 'relayer');
  if (!relayer.ok) errors.push(relayer.error);
  const tokens = params.getAll('feeToken');
  if (tokens.length === 0 || tokens.length > MAX_FEE_TOKENS) errors.push(`feeToken must be given 1 to ${MAX_FEE_TOKENS} times.`);
  const feeTokens: Address[] = [];
  for (const t of tokens) {
    const a = parseEvmAddress(t, 'feeToken');
    if (a.ok) feeTokens.push(a.value as Address);
    else errors.push(a.error);
  }
  if (errors.length > 0 || !relayer.ok) return { ok: false, status: 400, errors };
  if (!lookup.ok) return { ok: false, status: lookup.status, errors: [lookup.error] };
  try {
    const rewards = await reads.rewards(lookup.chain, relayer.value as Address, feeTokens);
    return {
      ok: true,
      body: JSON.stringify({
        chainId: lookup.chain.cfg.blockchainId,
        relayer: relayer.value,
        rewards: rewards.map((r) => ({ feeToken: r.feeToken, amount: r.amount.toString() })),
      }),
    };
  } catch (e) {
    if (e instanceof NodeReadError) return { ok: false, status: e.status, errors: [e.message] };
    throw e;
  }
}
