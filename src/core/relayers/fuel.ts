/**
 * A relayer's fuel on one chain: its gas balance (read from the Data API every few minutes), the
 * burn rate over the last hour and over the part of the day the figures hold, from its deliveries'
 * `destinationTransaction.gasSpent`, and the hours until the balance is gone at the last hour's rate.
 */
import { timeToEmptyWords } from '../../shared/time-to-empty';
import { inWindow } from './windows';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../shared/time';

/** One delivery the relayer paid on the chain: when (ms) and what it cost (wei). */
export interface GasPayment {
  at: number;
  wei: bigint;
}

export interface FuelFigures {
  balance: bigint;
  /** Wei per hour: the last hour's spend, and the day's spend over the hours held (`burnHours`). */
  burnPerHourLastHour: bigint;
  burnPerHourLastDay: bigint;
  /** The hours the day's rate is over: 24, or fewer while the figures hold less of the day (at least 1). */
  burnHours: number;
  /** Hours until empty at the last hour's rate (null: nothing burnt in the last hour). */
  hoursToEmpty: number | null;
}

/**
 * `heldFrom`: since when the deliveries are held (ms; null: the whole last day). A rate over a day
 * whose first hours are not held would read low, so the day's spend is divided by the hours held.
 */
export function fuelFigures(balance: bigint, payments: readonly GasPayment[], now: number, heldFrom: number | null = null): FuelFigures {
  let hour = 0n;
  let day = 0n;
  for (const p of payments) {
    if (p.at > now) continue;
    if (p.at > now - HOUR_MS) hour += p.wei;
    if (p.at > now - DAY_MS) day += p.wei;
  }
  const burnHours = heldHours(now, heldFrom);
  return {
    balance,
    burnPerHourLastHour: hour,
    burnPerHourLastDay: (day * 1000n) / BigInt(Math.round(burnHours * 1000)),
    burnHours,
    hoursToEmpty: hoursToEmpty(balance, hour),
  };
}

/** Hours until `balance` is gone at `burnPerHour` (null: nothing burnt): the one formula of a wallet's time to empty. */
export function hoursToEmpty(balance: bigint, burnPerHour: bigint): number | null {
  return burnPerHour > 0n ? ratio(balance, burnPerHour) : null;
}

/** What the deliveries of the hour up to `now` paid (wei): the burn rate the time to empty is judged at. */
export const lastHourBurn = (payments: readonly GasPayment[], now: number): bigint =>
  payments.filter((p) => inWindow(now, HOUR_MS, p.at)).reduce((s, p) => s + p.wei, 0n);

/** The balance now as the records tell it: the last read less what deliveries after it paid (never below 0; null: never read). */
export function balanceNow(last: { balance: bigint | null; readAt: number | null } | undefined, payments: readonly GasPayment[]): bigint | null {
  if (last?.balance == null || last.readAt === null) return null;
  const spent = spentAfter(payments, last.readAt);
  return last.balance > spent ? last.balance - spent : 0n;
}

/** Hours until the balance now is gone at the last hour's burn (null: never read, or nothing burnt in the last hour). */
export function estimatedHoursToEmpty(
  last: { balance: bigint | null; readAt: number | null } | undefined,
  payments: readonly GasPayment[],
  now: number,
): number | null {
  const left = balanceNow(last, payments);
  return left === null ? null : hoursToEmpty(left, lastHourBurn(payments, now));
}

/** The hours of the last day the figures hold, to the minute, at least one (the last hour's own window). */
export function heldHours(now: number, heldFrom: number | null): number {
  if (heldFrom === null || heldFrom <= now - DAY_MS) return 24;
  return Math.max(1, Math.round((now - heldFrom) / MINUTE_MS) / 60);
}

/** a / b as a float, exact enough for hours (both are wei amounts up to 10^30). */
const ratio = (a: bigint, b: bigint): number => Number((a * 1_000_000n) / b) / 1_000_000;

/** Whole units of a token as a decimal number (for display and dollars). */
export const toUnits = (wei: bigint, decimals = 18): number => Number(wei) / 10 ** decimals;

/** What the deliveries after a read (ms) paid. */
export const spentAfter = (payments: readonly GasPayment[], at: number): bigint => payments.filter((p) => p.at > at).reduce((s, p) => s + p.wei, 0n);

export interface FuelAlertState {
  firing: boolean;
  /** The previous read: its balance less the burn since is what this read shows without a refill. */
  lastRead?: { balance: bigint; at: number };
}

export type FuelAlertChange = { kind: 'fire'; text: string } | { kind: 'resolve'; text: string } | null;

/** A read of a wallet: its figures, the payments the records show (for the burn since the previous read) and when. */
export interface FuelRead {
  figures: FuelFigures;
  payments: readonly GasPayment[];
  at: number;
}

/**
 * Fires when the hours to empty drop to the threshold or below; resolved only by a refill, not by a
 * quiet hour that makes the rate look small. A refill is a read above what the previous read less the
 * burn since leaves (so a wallet that burnt more between two reads than it was given is still
 * refilled). After a refill too small for the threshold it fires again at the next read.
 */
export function decideFuelAlert(
  state: FuelAlertState,
  read: FuelRead,
  thresholdHours: number,
  names: { relayer: string; chain: string },
): { state: FuelAlertState; change: FuelAlertChange } {
  const { figures } = read;
  const low = figures.hoursToEmpty !== null && figures.hoursToEmpty <= thresholdHours;
  const seen = { lastRead: { balance: figures.balance, at: read.at } };
  const last = state.lastRead;
  const expected = last ? last.balance - spentAfter(read.payments, last.at) : undefined;
  if (state.firing && expected !== undefined && figures.balance > expected) {
    return { state: { firing: false, ...seen }, change: { kind: 'resolve', text: `Relayer ${names.relayer} was refilled on ${names.chain}.` } };
  }
  if (!state.firing && low) {
    const text = `Relayer ${names.relayer} will run out of gas on ${names.chain} in ${timeToEmptyWords(figures.hoursToEmpty)} at the last hour's rate.`;
    return { state: { firing: true, ...seen }, change: { kind: 'fire', text } };
  }
  return { state: { ...state, ...seen }, change: null };
}
