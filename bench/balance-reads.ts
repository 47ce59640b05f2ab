/**
 * Each wallet's balance reads as the service charged them (ServiceCount with `keepPaths`: the balance
 * path names the chain and the wallet), and the gaps between two reads of one wallet: every request
 * counts, whenever it came, so a read sooner than the stated minimum shows whatever the core's cycles.
 */
import type { ServiceCount } from './service-count';

const BALANCE_PATH = /^\/v1\/chains\/[^/]+\/addresses\/[^/]+\/balances:getNative\/?$/;

export interface BalanceReads {
  reads: number;
  wallets: number;
  /** Reads closer than `minGapMs` to the wallet's read before. */
  tooSoon: number;
  /** The smallest gap between two reads of one wallet, in minutes (null: no wallet read twice). */
  smallestGapMinutes: number | null;
}

export function balanceReadGaps(count: ServiceCount, caller: string, minGapMs: number): BalanceReads {
  const byWallet = new Map<string, number[]>();
  for (const { at, path } of count.paths(caller)) {
    if (!BALANCE_PATH.test(path)) continue;
    const wallet = path.toLowerCase().replace(/\/$/, '');
    byWallet.set(wallet, [...(byWallet.get(wallet) ?? []), at]);
  }
  let reads = 0;
  let tooSoon = 0;
  let smallest = Infinity;
  for (const times of byWallet.values()) {
    reads += times.length;
    for (let i = 1; i < times.length; i++) {
      const gap = times[i]! - times[i - 1]!;
      smallest = Math.min(smallest, gap);
      if (gap < minGapMs) tooSoon++;
    }
  }
  return { reads, wallets: byWallet.size, tooSoon, smallestGapMinutes: Number.isFinite(smallest) ? Math.round((smallest / 60_000) * 100) / 100 : null };
}
