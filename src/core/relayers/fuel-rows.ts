/**
 * The Relayers view's fuel rows: each covered wallet's balance now (its last read less what its deliveries
 * paid since), burn rates and time to empty, from the day's payments and the stored read (no request).
 */
import { chainByBlockchainId, chainLabel, type OwnChain } from '../../shared/chains';
import type { RelayerFuel } from '../../shared/relayers';
import { roundHoursToEmpty } from '../../shared/time-to-empty';
import type { FuelRead } from '../store/relayer-fuel';
import type { WalletPayments } from './economics';
import { estimatedHoursToEmpty, fuelFigures, type GasPayment } from './fuel';

/**
 * Since when a wallet's day burn is held: the routes' history start, or its first delivery in the day
 * when later (a world or a relayer younger than a day holds less, however much of its list was read).
 */
export function burnHeldFrom(payments: readonly GasPayment[], historyFrom: number | null): number | null {
  const first = payments.reduce<number | null>((m, p) => (m === null || p.at < m ? p.at : m), null);
  if (first === null) return historyFrom;
  return historyFrom === null ? first : Math.max(first, historyFrom);
}

/** One wallet's row; `low`: its fuel alert fires; `historyFrom`: since when the watched routes' deliveries are held. */
export function fuelRow(
  w: WalletPayments,
  r: FuelRead | undefined,
  low: boolean,
  now: number,
  own: readonly OwnChain[],
  historyFrom: number | null,
): RelayerFuel {
  const chain = chainByBlockchainId(w.blockchainId);
  const f = fuelFigures(r?.balance ?? 0n, w.payments, now, burnHeldFrom(w.payments, historyFrom));
  return {
    relayer: w.relayer,
    relayerLabel: w.watched.label,
    blockchainId: w.blockchainId,
    chainName: chainLabel(w.blockchainId, own),
    balance: r?.balance != null ? r.balance.toString() : null,
    symbol: r?.symbol || chain?.nativeSymbol || 'native',
    decimals: r?.readAt != null ? r.decimals : 18,
    usdPrice: r?.usdPrice ?? null,
    burnLastHour: f.burnPerHourLastHour.toString(),
    burnPerHourLastDay: f.burnPerHourLastDay.toString(),
    burnHours: f.burnHours,
    hoursToEmpty: roundHoursToEmpty(estimatedHoursToEmpty(r, w.payments, now)),
    readAt: r?.readAt ?? null,
    readError: r?.readError ?? null,
    low,
  };
}

/** By relayer (label, else address), then chain name. */
export const byRelayerAndChain = (a: RelayerFuel, b: RelayerFuel): number =>
  (a.relayerLabel || a.relayer).localeCompare(b.relayerLabel || b.relayer) || a.chainName.localeCompare(b.chainName);
