/**
 * The relayers' gas wallets: one per relayer and destination chain. Each delivery is paid from the
 * deliverer's wallet on the destination chain (the record's `destinationTransaction.gasSpent`, already in
 * wei); every wallet is topped up to its target at each refill time (a fixed grid of simulated time).
 * One demo wallet is topped up only to its waiting deliveries plus two thirds of the new deliveries the
 * last period brought (at least a few dozen deliveries), so with steady traffic it runs dry about
 * two thirds into each period and its deliveries wait for the next refill. On the demo day (demo-day.ts)
 * that wallet is an ordinary one that starts the day low instead: its gas but a few dozen deliveries' is
 * moved out at the start, nothing tops it up until the day's refill, which fills it for good.
 * Deterministic: no randomness, only the deliveries the simulator makes.
 */
import { chainByBlockchainId, type ChainInfo } from '../shared/chains';
import { gasPriceWei } from './catalog';
import { HOUR_MS } from '../shared/time';

/** Wallets are topped up at every multiple of this (simulated epoch ms). */
export const REFILL_EVERY_MS = 2 * HOUR_MS;
/** What a typical delivery costs in gas units (the simulator draws 150k-420k). */
const TYPICAL_DELIVERY_GAS = 285_000n;
/** A normal wallet's target: this many typical deliveries. */
const NORMAL_TARGET_DELIVERIES = 50_000n;
/** The dry wallet's target: a few dozen deliveries, used up long before the next refill. */
const DRY_TARGET_DELIVERIES = 40n;

/** USD per native token (fixed, like the reward tokens' prices); testnet tokens have none. */
const NATIVE_USD: Record<string, number> = { AVAX: 24.87, BEAM: 0.0213, JEWEL: 0.118, ALOT: 0.512, GUN: 0.0364 };

export function nativeUsd(chain: ChainInfo): number | undefined {
  return chain.network === 'mainnet' ? NATIVE_USD[chain.nativeSymbol] : undefined;
}

/** The wallet that runs dry: a relayer (lowercase address) on one chain (blockchain ID). */
export interface DryWallet {
  relayer: string;
  blockchainId: string;
}

/** The demo day's low wallet: from `lowFrom` (the start) it holds a few dozen deliveries' gas, until it is filled at `refillAt` (epoch ms). */
export interface LowDay {
  lowFrom: number;
  refillAt: number;
}

interface WalletTruth {
  relayer: string;
  blockchainId: string;
  /** Wei, as decimal strings. */
  balance: string;
  /** What it started with (its first target). */
  initial: string;
  target: string;
  spent: string;
  refilled: string;
  /** Moved out of the wallet (the demo day's low start): balance = initial + refilled - spent - withdrawn. */
  withdrawn: string;
  deliveries: number;
  /** Deliveries that waited for a refill because the wallet could not pay. */
  postponed: number;
  /** When the wallet first could not pay a delivery, once per refill period (simulated ms). */
  stalls: number[];
  /** Every delivery paid: simulated time (ms) and wei. */
  payments: { at: number; wei: string }[];
}

interface Wallet {
  relayer: string;
  blockchainId: string;
  initial: bigint;
  target: bigint;
  balance: bigint;
  spent: bigint;
  refilled: bigint;
  withdrawn: bigint;
  slot: number;
  /** Wei asked of it in the current period: paid plus refused (a refused delivery retries once, next period). */
  demand: bigint;
  /** Wei refused in the current and the previous period (the deliveries waiting for the refill). */
  refused: bigint;
  refusedBefore: bigint;
  dry: boolean;
  /** The demo day's low start: moved out (at `lowFrom`), then filled (at `refillAt`). */
  lowSince: boolean;
  filled: boolean;
  deliveries: number;
  postponed: number;
  stalls: number[];
  payments: { at: number; wei: string }[];
}

const maxOf = (a: bigint, b: bigint) => (a > b ? a : b);
const slotOf = (at: number) => Math.floor(at / REFILL_EVERY_MS);
const keyOf = (relayer: string, blockchainId: string) => `${relayer.toLowerCase()}|${blockchainId}`;

export class RelayerWallets {
  private readonly wallets = new Map<string, Wallet>();

  constructor(
    /** Relayers that have wallets (lowercase); other addresses hold nothing. */
    private readonly relayers: ReadonlySet<string>,
    readonly dry: DryWallet | null,
    /** The demo day: the dry wallet starts the day low instead of running dry every period. */
    private readonly lowDay: LowDay | null = null,
  ) {}

  /** A wallet's target: what each refill tops it up to. */
  targetOf(relayer: string, chain: ChainInfo): bigint {
    const per = TYPICAL_DELIVERY_GAS * gasPriceWei(chain);
    const isDry = this.dry !== null && this.dry.relayer === relayer.toLowerCase() && this.dry.blockchainId === chain.blockchainId;
    return per * (isDry && !this.lowDay ? DRY_TARGET_DELIVERIES : NORMAL_TARGET_DELIVERIES);
  }

  /**
   * Pays a delivery at `at` if the wallet can; otherwise returns the time of the next refill (the
   * delivery waits until then) and changes nothing but the postponed count.
   */
  pay(relayer: string, blockchainId: string, wei: bigint, at: number): { paid: true } | { paid: false; retryAt: number } {
    const w = this.wallet(relayer, blockchainId, at);
    if (!w) return { paid: true };
    w.demand += wei;
    if (w.balance < wei) {
      w.refused += wei;
      w.postponed++;
      if (w.stalls[w.stalls.length - 1] === undefined || slotOf(w.stalls[w.stalls.length - 1]!) < w.slot) w.stalls.push(at);
      return { paid: false, retryAt: this.heldLow(w) ? this.lowDay!.refillAt : (w.slot + 1) * REFILL_EVERY_MS };
    }
    w.balance -= wei;
    w.spent += wei;
    w.deliveries++;
    w.payments.push({ at, wei: wei.toString() });
    return { paid: true };
  }

  /** Balance in wei at `at` (refills due by then applied); 0 for an address without a wallet there. */
  balanceOf(address: string, blockchainId: string, at: number): bigint {
    return this.wallet(address, blockchainId, at)?.balance ?? 0n;
  }

  /** Every wallet touched so far, as the truth tests and benchmarks compare with. */
  truth(at: number): WalletTruth[] {
    return [...this.wallets.values()].map((w) => {
      this.refill(w, at);
      return {
        relayer: w.relayer,
        blockchainId: w.blockchainId,
        balance: w.balance.toString(),
        initial: w.initial.toString(),
        target: w.target.toString(),
        spent: w.spent.toString(),
        refilled: w.refilled.toString(),
        withdrawn: w.withdrawn.toString(),
        deliveries: w.deliveries,
        postponed: w.postponed,
        stalls: [...w.stalls],
        payments: [...w.payments],
      };
    });
  }

  private wallet(address: string, blockchainId: string, at: number): Wallet | null {
    const relayer = address.toLowerCase();
    if (!this.relayers.has(relayer)) return null;
    const key = keyOf(relayer, blockchainId);
    let w = this.wallets.get(key);
    if (!w) {
      const chain = chainByBlockchainId(blockchainId);
      if (!chain) return null;
      const target = this.targetOf(relayer, chain);
      const dry = this.dry !== null && this.dry.relayer === relayer && this.dry.blockchainId === blockchainId;
      w = {
        relayer,
        blockchainId,
        initial: target,
        target,
        balance: target,
        spent: 0n,
        refilled: 0n,
        withdrawn: 0n,
        slot: slotOf(at),
        demand: 0n,
        refused: 0n,
        refusedBefore: 0n,
        dry,
        lowSince: false,
        filled: false,
        deliveries: 0,
        postponed: 0,
        stalls: [],
        payments: [],
      };
      this.wallets.set(key, w);
    }
    this.refill(w, at);
    return w;
  }

  /** The demo day's low wallet between its low start and its refill: nothing tops it up. */
  private heldLow(w: Wallet): boolean {
    return w.dry && this.lowDay !== null && w.lowSince && !w.filled;
  }

  private refill(w: Wallet, at: number): void {
    if (w.dry && this.lowDay) this.lowDayTurns(w, at, this.lowDay);
    const slot = slotOf(at);
    if (slot <= w.slot) return;
    if (this.heldLow(w)) {
      w.slot = slot;
      return;
    }
    // The dry wallet: what waits, plus two thirds of the new deliveries (all attempts but the retries) of the period just ended.
    if (w.dry && !this.lowDay) {
      const fresh = slot === w.slot + 1 ? w.demand - w.refusedBefore : 0n;
      w.target = maxOf(this.targetOf(w.relayer, chainByBlockchainId(w.blockchainId)!), w.refused + (fresh * 2n) / 3n);
    }
    w.slot = slot;
    w.demand = 0n;
    w.refusedBefore = w.refused;
    w.refused = 0n;
    if (w.balance < w.target) {
      w.refilled += w.target - w.balance;
      w.balance = w.target;
    }
  }

  /** The demo day's two turns: down to a few dozen deliveries at its start, filled to the target at its refill. */
  private lowDayTurns(w: Wallet, at: number, day: LowDay): void {
    if (!w.lowSince && at >= day.lowFrom && at < day.refillAt) {
      const low = TYPICAL_DELIVERY_GAS * gasPriceWei(chainByBlockchainId(w.blockchainId)!) * DRY_TARGET_DELIVERIES;
      if (w.balance > low) {
        w.withdrawn += w.balance - low;
        w.balance = low;
      }
      w.lowSince = true;
    }
    if (w.lowSince && !w.filled && at >= day.refillAt) {
      w.filled = true;
      if (w.balance < w.target) {
        w.refilled += w.target - w.balance;
        w.balance = w.target;
      }
    }
  }
}
