/** How a poll cycle's result sets the poller's state and the wait before the next cycle. */
import type { PollState, PollStatus } from '../../shared/contract';
import type { ErrorInfo } from '../../shared/errors';
import { OFFLINE_RETRY_MS } from '../../shared/policy';

export interface CycleEnd {
  error: ErrorInfo | null;
  /** Whether the cycle asked the data source anything (with nothing watched it asks nothing). */
  asked: boolean;
  startedMs: number;
  nowMs: number;
  intervalMs: number;
  /** Offline cycles in a row before this one. */
  offlineStreak: number;
  /** Until when the request budget (or the server) blocks requests, if it does. */
  blockedUntil: number | null;
}

interface CycleOutcome {
  state: PollState;
  delayMs: number;
  offlineStreak: number;
  patch: Partial<PollStatus>;
}

export function cycleOutcome(e: CycleEnd): CycleOutcome {
  const { error, nowMs: now, intervalMs } = e;
  const delayMs = Math.max(0, e.startedMs + intervalMs - now);
  const patch: Partial<PollStatus> = { lastError: error, rateLimitedUntil: null };
  // A cycle that asked nothing proves nothing about the data source: it never counts as a successful poll.
  if (!error) return { state: 'idle', delayMs, offlineStreak: 0, patch: e.asked ? { ...patch, lastSuccessAt: now } : patch };
  if (error.kind === 'network' || error.kind === 'timeout') {
    const retry = OFFLINE_RETRY_MS[Math.min(e.offlineStreak, OFFLINE_RETRY_MS.length - 1)] as number;
    return { state: 'offline', delayMs: Math.min(delayMs || intervalMs, retry), offlineStreak: e.offlineStreak + 1, patch };
  }
  if (error.kind === 'rate_limited') {
    const until = e.blockedUntil ?? error.retryAt ?? now + intervalMs;
    return { state: 'rate_limited', delayMs: Math.max(delayMs, until - now), offlineStreak: e.offlineStreak, patch: { ...patch, rateLimitedUntil: until } };
  }
  return { state: 'error', delayMs, offlineStreak: e.offlineStreak, patch };
}
