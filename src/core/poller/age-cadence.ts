/**
 * The one re-check cadence by age: an old message rarely moves, so it is asked for less often the
 * older it gets (a quarter of its age), never less often than RECHECK_MAX_MS nor more often than the
 * floor its caller sets (3 intervals for a pending message, RECHECK_FALLBACK_MS for a receipt's fallback).
 */
import { RECHECK_MAX_MS } from '../../shared/policy';

export const ageCadence = (ageMs: number, floorMs: number): number => Math.min(RECHECK_MAX_MS, Math.max(floorMs, ageMs / 4));
