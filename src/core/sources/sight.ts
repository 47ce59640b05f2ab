/**
 * What the alert rules ask before judging: is the data (or the chain) they would judge from being read
 * now? Not seeing is never news about relayers: a rule whose source or chain is not seen is held (it
 * neither fires nor resolves) and judged again on what is visible once it is read again.
 */
export interface Sight {
  /** The current data source is read now and has caught up after any outage. */
  seeing(): boolean;
  /** A chain is read now: with your own nodes its node (and the service), else the data source as a whole. */
  sees(blockchainId: string): boolean;
  /**
   * When the source, or the latest of these chains, came back after it could not be read (ms); null
   * when none of them was blind since the core started. A message last read before that moment is read
   * again before `stuck` is judged from it.
   */
  backSince(blockchainIds: readonly string[]): number | null;
}

/** Sees everything (tests and callers that judge without a source health). */
export const ALWAYS_SEEING: Sight = { seeing: () => true, sees: () => true, backSince: () => null };

/** Whether `stuck` is held for a tracked message: a chain of it not seen, or not read since its chains or source came back. */
export function stuckHeld(sight: Sight, t: { sourceChain: string; destinationChain: string; lastSeenAt: number }): boolean {
  if (!sight.seeing() || !sight.sees(t.sourceChain) || !sight.sees(t.destinationChain)) return true;
  const back = sight.backSince([t.sourceChain, t.destinationChain]);
  return back !== null && t.lastSeenAt < back;
}
