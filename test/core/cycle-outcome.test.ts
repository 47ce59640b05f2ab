/** The wait after a poll cycle and the state it leaves, from how the cycle ended. */
import { describe, expect, it } from 'vitest';
import { cycleOutcome, type CycleEnd } from '../../src/core/poller/cycle-outcome';
import { OFFLINE_RETRY_MS } from '../../src/shared/policy';

const end = (o: Partial<CycleEnd>): CycleEnd => ({
  error: null,
  asked: true,
  startedMs: 100_000,
  nowMs: 103_000,
  intervalMs: 10_000,
  offlineStreak: 0,
  blockedUntil: null,
  ...o,
});

describe('cycleOutcome', () => {
  it('after a good cycle waits out the rest of the interval and forgets the offline streak', () => {
    expect(cycleOutcome(end({ offlineStreak: 3 }))).toEqual({
      state: 'idle',
      delayMs: 7_000,
      offlineStreak: 0,
      patch: { lastError: null, rateLimitedUntil: null, lastSuccessAt: 103_000 },
    });
    // A cycle longer than the interval: the next one starts at once.
    expect(cycleOutcome(end({ nowMs: 125_000 })).delayMs).toBe(0);
  });

  it('a cycle that asked nothing (nothing watched yet) is not a successful poll', () => {
    expect(cycleOutcome(end({ asked: false }))).toEqual({
      state: 'idle',
      delayMs: 7_000,
      offlineStreak: 0,
      patch: { lastError: null, rateLimitedUntil: null },
    });
  });

  it('offline, retries sooner and sooner less often: 2, 5, 10, then every 30 s (never later than the interval)', () => {
    const offline = { kind: 'network' as const, message: 'unreachable' };
    const waits: number[] = [];
    let streak = 0;
    for (let i = 0; i < 6; i++) {
      const o = cycleOutcome(end({ error: offline, intervalMs: 60_000, offlineStreak: streak }));
      expect(o.state).toBe('offline');
      expect(o.patch).toEqual({ lastError: offline, rateLimitedUntil: null });
      waits.push(o.delayMs);
      streak = o.offlineStreak;
    }
    expect(waits).toEqual([...OFFLINE_RETRY_MS, 30_000, 30_000]);
    expect(cycleOutcome(end({ error: { kind: 'timeout', message: 'slow' }, offlineStreak: 3 })).delayMs).toBe(7_000);
  });

  it('rate limited, waits until the budget or the server frees requests, whichever it knows', () => {
    const limited = { kind: 'rate_limited' as const, message: 'wait', retryAt: 150_000 };
    expect(cycleOutcome(end({ error: limited, blockedUntil: 200_000 }))).toMatchObject({
      state: 'rate_limited',
      delayMs: 97_000,
      patch: { rateLimitedUntil: 200_000 },
    });
    expect(cycleOutcome(end({ error: limited }))).toMatchObject({ delayMs: 47_000, patch: { rateLimitedUntil: 150_000 } });
    expect(cycleOutcome(end({ error: { kind: 'rate_limited', message: 'wait' } }))).toMatchObject({ delayMs: 10_000, patch: { rateLimitedUntil: 113_000 } });
    // It is no offline cycle: the streak stays as it was.
    expect(cycleOutcome(end({ error: limited, offlineStreak: 2 })).offlineStreak).toBe(2);
  });

  it('any other error keeps the interval and says so in the state', () => {
    const denied = { kind: 'unauthorized' as const, message: 'The API key was refused.' };
    expect(cycleOutcome(end({ error: denied, offlineStreak: 1 }))).toEqual({
      state: 'error',
      delayMs: 7_000,
      offlineStreak: 1,
      patch: { lastError: denied, rateLimitedUntil: null },
    });
  });
});
