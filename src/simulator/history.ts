/**
 * The demo's past: a fresh store starts with hours of traffic at the simulator's rate, so the first
 * screen is a full page. The store then remembers its seed, so the busy addresses a user put on the
 * watchlist stay busy after a restart (the addresses depend on the seed alone).
 */
import type { RecordStore } from '../local-service/store/record-store';

/** At most this many messages of history, whatever the rate (start-up stays within a few seconds). */
const MAX_HISTORY_MESSAGES = 20_000;
/** When traffic is off (rate 0), history is written at this rate. */
const IDLE_HISTORY_RATE = 0.5;

export const historyRate = (rate: number): number => (rate > 0 ? rate : IDLE_HISTORY_RATE);

/** How many past messages `hours` of traffic at `rate` per second are, capped. */
export function historyMessageCount(hours: number, rate: number): number {
  if (hours <= 0) return 0;
  return Math.min(MAX_HISTORY_MESSAGES, Math.round(hours * 3600 * historyRate(rate)));
}

/** The seed the store was first filled with, else `seed` (and remembers it). */
export function rememberedSeed(store: RecordStore, seed: number): number {
  const kept = store.getMeta('simulatorSeed');
  if (kept !== undefined && Number.isInteger(Number(kept))) return Number(kept);
  store.setMeta('simulatorSeed', String(seed));
  return seed;
}
