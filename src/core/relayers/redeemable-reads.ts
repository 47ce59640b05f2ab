/**
 * The redeemable rewards of each reward address per source chain (own nodes only), read on the
 * balances' cadence: again when the last read is older than `everyMs`, when a receipt paid more
 * since, or when a new fee token appeared; a failed read is tried again a minute later and keeps
 * the last amounts it had. Kept in memory: after a restart the first cycle reads again (own nodes
 * have no request budget to spend).
 */
import type { RewardsRead } from '../own-nodes/relayer-rewards';
import type { RedeemableOf, RewardCredit } from './economics';
import { MINUTE_MS } from '../../shared/time';

/** The most fee tokens one read asks for (the service's limit per request). */
const MAX_FEE_TOKENS_PER_READ = 20;
const RETRY_MS = MINUTE_MS;

interface Read {
  at: number;
  paid: string;
  tokens: Set<string>;
  amounts: Map<string, bigint> | null;
  retryAt: number | null;
}

export class RedeemableReads {
  private readonly reads = new Map<string, Read>();

  constructor(
    private readonly read: (chain: string, relayer: string, tokens: readonly string[]) => Promise<RewardsRead>,
    private readonly everyMs: number,
    private readonly onError: (credit: RewardCredit, error: string) => void = () => undefined,
  ) {}

  /**
   * Reads the credits that are due on a chain that is seen (`seen`: its node is read now; an unseen
   * chain is not asked and keeps its last amounts); forgets those no longer asked for.
   */
  async refresh(credits: readonly RewardCredit[], now: number, seen: (chain: string) => boolean = () => true): Promise<void> {
    const keep = new Set<string>();
    for (const c of credits) {
      const key = `${c.relayer}|${c.chain}`;
      keep.add(key);
      const last = this.reads.get(key);
      if ((last && !this.due(last, c, now)) || !seen(c.chain)) continue;
      const tokens = c.tokens.slice(0, MAX_FEE_TOKENS_PER_READ);
      const r = await this.read(c.chain, c.relayer, tokens);
      if (r.ok) this.reads.set(key, { at: now, paid: c.paid, tokens: new Set(tokens), amounts: r.amounts, retryAt: null });
      else {
        this.onError(c, r.error);
        this.reads.set(key, {
          at: last?.at ?? now,
          paid: last?.paid ?? '',
          tokens: last?.tokens ?? new Set(),
          amounts: last?.amounts ?? null,
          retryAt: now + RETRY_MS,
        });
      }
    }
    for (const key of [...this.reads.keys()]) if (!keep.has(key)) this.reads.delete(key);
  }

  private due(last: Read, c: RewardCredit, now: number): boolean {
    if (last.retryAt !== null) return now >= last.retryAt;
    return now - last.at >= this.everyMs || last.paid !== c.paid || c.tokens.some((t) => !last.tokens.has(t));
  }

  /** The last read amount (null: never read). */
  readonly amount: RedeemableOf = (relayer, chain, token) => {
    const r = this.reads.get(`${relayer}|${chain}`);
    if (!r?.amounts || !r.tokens.has(token)) return null;
    return r.amounts.get(token) ?? 0n;
  };

  clear(): void {
    this.reads.clear();
  }
}
