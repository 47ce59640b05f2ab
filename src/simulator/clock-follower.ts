/** Ties a simulator to a Clock: it catches up with the clock whenever an event is due, at most every tickMs. */
import type { Clock } from '../shared/clock';

/** What the follower needs of the simulator. */
export interface Follower {
  /** Simulated time, epoch ms. */
  now(): number;
  /** When the next event is due (undefined: none waiting). */
  nextAt(): number | undefined;
  /** Moves simulated time on by `ms` (the simulator's step, which calls `reschedule` when done). */
  step(ms: number): void;
}

export interface ClockFollow {
  /** Sets the timer for the next due event (after every step). */
  reschedule(): void;
  /** Stops following: the pending timer is cancelled. */
  detach(): void;
}

/** Starts following `clock`; `onAttached` receives the follow before the first catch-up (whose step reschedules through it). */
export function followClock(clock: Clock, tickMs: number, sim: Follower, onAttached: (follow: ClockFollow) => void): void {
  let cancel: (() => void) | null = null;
  let lastTick = clock.now();
  const tick = () => {
    cancel = null;
    lastTick = clock.now();
    const behind = lastTick - sim.now();
    if (behind > 0) sim.step(behind);
    else schedule();
  };
  const schedule = () => {
    cancel?.();
    cancel = null;
    const next = sim.nextAt();
    if (next === undefined) return;
    const due = Math.max(next, lastTick + tickMs, sim.now());
    cancel = clock.setTimer(tick, Math.max(0, due - clock.now()));
  };
  onAttached({ reschedule: schedule, detach: () => cancel?.() });
  const behind = clock.now() - sim.now();
  if (behind > 0) sim.step(behind);
  else schedule();
}
