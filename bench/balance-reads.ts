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
  /** Reads closer than `minGapMs` to the wallet's read before, not excused. */
  tooSoon: number;
  /** Reads closer than that, each in the cycle of an alert that excuses one (a read brought forward). */
  broughtForward: number;
  /** The smallest gap between two reads of one wallet, in minutes (null: no wallet read twice). */
  smallestGapMinutes: number | null;
}

/** `excusedAt`: when alerts fired that each excuse one read sooner than `minGapMs` within `withinMs` of it. */
export function balanceReadGaps(count: ServiceCount, caller: string, minGapMs: number, excusedAt: readonly number[] = [], withinMs = 0): BalanceReads {
  const excuses = [...excusedAt];
  const byWallet = new Map<string, number[]>();
  for (const { at, path } of count.paths(caller)) {
    if (!BALANCE_PATH.test(path)) continue;
    const wallet = path.toLowerCase().replace(/\/$/, '');
    byWallet.set(wallet, [...(byWallet.get(wallet) ?? []), at]);
  }
  let reads = 0;
  let tooSoon = 0;
  let broughtForward = 0;
  let smallest = Infinity;
  for (const times of byWallet.values()) {
    reads += times.length;
    for (let i = 1; i < times.length; i++) {
      const gap = times[i]! - times[i - 1]!;
      smallest = Math.min(smallest, gap);
      if (gap >= minGapMs) continue;
      const excuse = excuses.findIndex((a) => Math.abs(a - times[i]!) <= withinMs);
      if (excuse < 0) tooSoon++;
      else {
        excuses.splice(excuse, 1);
        broughtForward++;
      }
    }
  }
  return {
    reads,
    wallets: byWallet.size,
    tooSoon,
    broughtForward,
    smallestGapMinutes: Number.isFinite(smallest) ? Math.round((smallest / 60_000) * 100) / 100 : null,
  };
}
