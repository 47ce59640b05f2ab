/**
 * What a relayer may redeem from a chain's messenger, asked of the local service
 * (`/_local/relayer-rewards`, which reads `checkRelayerRewardAmount` from the chain's node). The core
 * never holds a JSON-RPC client for this: the service already reads the chains, and the public Data
 * API has no such operation (with it, `redeemable` stays null).
 */
import { z } from 'zod';
// undici's fetch (the core's HTTP client), not the global one a host environment may replace.
import { fetch } from 'undici';

const AnswerSchema = z.object({
  rewards: z.array(z.object({ feeToken: z.string().max(42), amount: z.string().regex(/^\d{1,78}$/) })).max(50),
});
const ErrorSchema = z.object({ message: z.union([z.string(), z.array(z.string())]) });
const TIMEOUT_MS = 10_000;

export type RewardsRead = { ok: true; amounts: Map<string, bigint> } | { ok: false; error: string };

/** Amounts by fee token (lowercase address) that `relayer` may redeem on `chainId` (cb58 or EVM chain ID). */
export async function readRelayerRewards(url: string, chainId: string, relayer: string, feeTokens: readonly string[]): Promise<RewardsRead> {
  const q = new URLSearchParams({ chainId, relayer });
  for (const t of feeTokens) q.append('feeToken', t);
  try {
    const res = await fetch(`${url}/_local/relayer-rewards?${q.toString()}`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    const body: unknown = await res.json();
    if (!res.ok) {
      const e = ErrorSchema.safeParse(body);
      const said = e.success ? [e.data.message].flat().join(' ') : '';
      return { ok: false, error: `The local service answered HTTP ${res.status}${said ? `: ${said}` : ''}` };
    }
    const parsed = AnswerSchema.safeParse(body);
    if (!parsed.success) return { ok: false, error: 'The local service answered redeemable rewards in an unexpected shape.' };
    return { ok: true, amounts: new Map(parsed.data.rewards.map((r) => [r.feeToken.toLowerCase(), BigInt(r.amount)])) };
  } catch (e) {
    return { ok: false, error: `The local service did not answer redeemable rewards (${e instanceof Error ? e.message : String(e)}).` };
  }
}
