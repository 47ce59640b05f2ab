/**
 * When a wallet's balance is read next. Between reads the balance is known from the records: the last
 * read less the gas the wallet's deliveries burnt since (fuel.ts' estimatedHoursToEmpty). Only what the records cannot say (a refill,
 * spending outside the watched routes) needs a read, so a wallet is read again only when that matters:
 * while its fuel alert fires (to see the refill) or its estimated time to empty is near the threshold
 * (so the alert stays timely), at most every `readEveryMs`; otherwise once its read is `maxAgeMs` old.
 * When the estimate between reads crosses the threshold, the read is brought forward to that cycle,
 * so the alert is decided then and not up to a cadence later.
 */
import type { FuelRead } from '../store/relayer-fuel';
import { MINUTE_MS } from '../../shared/time';

/** A failed read (an outage, a rate limit) is tried again this soon, not at every poll cycle. */
const RETRY_FAILED_READ_MS = MINUTE_MS;
/** A wallet whose estimate says it empties within this many times the threshold is read at the short cadence. */
export const NEAR_THRESHOLD_FACTOR = 2;

export interface ReadCadence {
  /** The shortest gap between two reads of one wallet (BALANCE_READ_EVERY_MINUTES). */
  readEveryMs: number;
  /** The longest a wallet goes unread (BALANCE_MAX_AGE_MINUTES): refills and outside spending show by then. */
  maxAgeMs: number;
}

interface WalletNow {
  /** Hours to empty estimated from the last read and the records (null: unknown or no burn in the last hour). */
  hoursToEmpty: number | null;
  thresholdHours: number;
  /** Its fuel alert fires (an open episode). */
  firing: boolean;
}

export function readDue(r: FuelRead | undefined, now: number, cadence: ReadCadence, w: WalletNow): boolean {
  if (!r || r.triedAt === null) return true;
  const age = now - r.triedAt;
  if (r.readError !== null) return age >= Math.min(RETRY_FAILED_READ_MS, cadence.readEveryMs);
  if (age >= cadence.maxAgeMs) return true;
  // The estimate crossed the threshold: the alert is decided on a read now, not at the next cadence.
  if (crossed(w)) return true;
  if (age < cadence.readEveryMs) return false;
  return w.firing || (w.hoursToEmpty !== null && w.hoursToEmpty <= NEAR_THRESHOLD_FACTOR * w.thresholdHours);
}

/** The running estimate says the wallet empties within the threshold while its alert is quiet. */
const crossed = (w: WalletNow) => !w.firing && w.hoursToEmpty !== null && w.hoursToEmpty <= w.thresholdHours;
