import { ManualClock } from '../src/shared/clock';

/** Waiting makes time pass (a retry sleeps in simulated time, never in real time). */
export class JumpClock extends ManualClock {
  override sleep(ms: number, signal?: AbortSignal): Promise<void> {
    const p = super.sleep(ms, signal);
    void this.advance(Math.max(0, ms));
    return p;
  }
}
