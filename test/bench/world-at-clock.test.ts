/**
 * bench/bench-service.ts `worldAtClock`: with a coarse world tick (bench:day's 5 s) the world may be
 * seconds behind the clock when a cycle begins, and the cycle's own requests move it on (bench:day's
 * moving world): a change due just before the cycle's time is then written while the cycle reads,
 * stamped visible in the cycle's past. Brought up to the clock at each cycle's start, the world writes
 * nothing visible before a read that could not have seen it. A real service over real HTTP, its
 * simulator and a manual clock; the same world both ways.
 */
import { describe, expect, it } from 'vitest';
import { startBenchService, worldAtClock } from '../../bench/bench-service';
import { ManualClock } from '../../src/shared/clock';

const INTERVAL_MS = 30_000;

/** Changes written, over 20 cycles at 2 msg/s, as visible before the last cycle's read began. */
async function visibleInAReadsPast(catchUp: boolean): Promise<number> {
  const clock = new ManualClock(Date.UTC(2026, 0, 2));
  const svc = await startBenchService(clock, {
    rate: 2,
    addresses: 20,
    preload: 50,
    realistic: true,
    publicLimits: true,
    tickMs: 5_000,
    moveWorld: { perRequestMs: 200, maxAheadMs: INTERVAL_MS / 2 },
  });
  try {
    let readAt = clock.now();
    let inThePast = 0;
    svc.onRecordChange((changes) => (inThePast += changes.filter((c) => c.visibleAt < readAt).length));
    for (let i = 0; i < 20; i++) {
      await clock.advance(INTERVAL_MS);
      if (catchUp) worldAtClock(svc, clock);
      // A reader polls now: what is written from here on must be visible from here on.
      readAt = clock.now();
      // As many requests as a busy cycle makes: the world runs its 15 s ahead, off the clock's 5 s ticks.
      for (let p = 0; p < 80; p++) expect((await fetch(`${svc.url}/v1/teleporter/messages?pageSize=100`)).status).toBe(200);
    }
    return inThePast;
  } finally {
    await svc.close();
  }
}

describe('worldAtClock', () => {
  it('leaves no change stamped visible before a read that began without it', async () => {
    expect(await visibleInAReadsPast(false)).toBeGreaterThan(0);
    expect(await visibleInAReadsPast(true)).toBe(0);
  });
});
