/** When a wallet's balance is read next: every `readEveryMs` after a good read, a minute after a failed one. */
import type { FuelRead } from '../store/relayer-fuel';

/** A failed read (an outage, a rate limit) is tried again this soon, not at every poll cycle. */
const RETRY_FAILED_READ_MS = 60_000;

export function readDue(r: FuelRead | undefined, now: number, readEveryMs: number): boolean {
  if (!r || r.triedAt === null) return true;
  const failed = r.readError !== null;
  return now - r.triedAt >= (failed ? Math.min(RETRY_FAILED_READ_MS, readEveryMs) : readEveryMs);
}
