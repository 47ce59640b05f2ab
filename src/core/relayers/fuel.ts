/**
 * A relayer's fuel on one chain: its gas balance (read from the Data API every few minutes), the
 * burn rate over the last hour and day from its deliveries' `destinationTransaction.gasSpent`, and
 * the hours until the balance is gone at the last hour's rate.
 */
const HOUR_MS = 3_600_000;

/** One delivery the relayer paid on the chain: when (ms) and what it cost (wei). */
export interface GasPayment {
  at: number;
  wei: bigint;
}

export interface FuelFigures {
  balance: bigint;
  /** Wei per hour: the last hour's spend, and the last day's spend / 24. */
  burnPerHourLastHour: bigint;
  burnPerHourLastDay: bigint;
  /** Hours until empty at the last hour's rate (null: nothing burnt in the last hour). */
  hoursToEmpty: number | null;
}

export function fuelFigures(balance: bigint, payments: readonly GasPayment[], now: number): FuelFigures {
  let hour = 0n;
  let day = 0n;
  for (const p of payments) {
    if (p.at > now) continue;
    if (p.at > now - HOUR_MS) hour += p.wei;
    if (p.at > now - 24 * HOUR_MS) day += p.wei;
  }
  return { balance, burnPerHourLastHour: hour, burnPerHourLastDay: day / 24n, hoursToEmpty: hour > 0n ? ratio(balance, hour) : null };
}

/** a / b as a float, exact enough for hours (both are wei amounts up to 10^30). */
const ratio = (a: bigint, b: bigint): number => Number((a * 1_000_000n) / b) / 1_000_000;

/** Whole units of a token as a decimal number (for display and dollars). */
export const toUnits = (wei: bigint, decimals = 18): number => Number(wei) / 10 ** decimals;

export interface FuelAlertState {
  firing: boolean;
  /** The balance at the previous read: a higher balance now means the wallet was refilled. */
  lastBalance?: bigint;
}

export type FuelAlertChange = { kind: 'fire'; text: string } | { kind: 'resolve'; text: string } | null;

/**
 * Fires when the hours to empty drop to the threshold or below; resolved only by a refill (a balance
 * higher than at the previous read), not by a quiet hour that makes the rate look small. After a
 * refill too small for the threshold it fires again at the next read.
 */
export function decideFuelAlert(
  state: FuelAlertState,
  figures: FuelFigures,
  thresholdHours: number,
  names: { relayer: string; chain: string },
): { state: FuelAlertState; change: FuelAlertChange } {
  const low = figures.hoursToEmpty !== null && figures.hoursToEmpty <= thresholdHours;
  const seen = { lastBalance: figures.balance };
  if (state.firing && state.lastBalance !== undefined && figures.balance > state.lastBalance) {
    return { state: { firing: false, ...seen }, change: { kind: 'resolve', text: `Relayer ${names.relayer} was refilled on ${names.chain}.` } };
  }
  if (!state.firing && low) {
    const hours = Math.max(1, Math.round(figures.hoursToEmpty!));
    const text = `Relayer ${names.relayer} will run out of gas on ${names.chain} in about ${hours} h at the last hour's rate.`;
    return { state: { firing: true, ...seen }, change: { kind: 'fire', text } };
  }
  return { state: { ...state, ...seen }, change: null };
}
