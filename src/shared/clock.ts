/**
 * Time is injected in core and service so that tests and soak benchmarks can run hours in seconds.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Runs `fn` after `ms`; returns a cancel function. */
  setTimer(fn: () => void, ms: number): () => void;
  /** Resolves after `ms` (rejects with the signal's reason when aborted). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms));
    return () => clearTimeout(t);
  },
  sleep(ms, signal) {
    return sleepOn((fn, after) => systemClock.setTimer(fn, after), ms, signal);
  },
};

/** A sleep built on any clock's setTimer, cancelled by the signal. */
export function sleepOn(setTimer: Clock['setTimer'], ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    // Like node:timers/promises, an aborted sleep rejects with whatever reason the signal was given.
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    if (signal?.aborted) return reject(signal.reason);
    const cancel = setTimer(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      cancel();
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A clock that moves only when told: `advance(ms)` fires due timers in order. */
export class ManualClock implements Clock {
  private current: number;
  private timers: { at: number; seq: number; fn: () => void }[] = [];
  private seq = 0;
  constructor(start = Date.UTC(2026, 0, 1)) {
    this.current = start;
  }
  now(): number {
    return this.current;
  }
  setTimer(fn: () => void, ms: number): () => void {
    const timer = { at: this.current + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepOn((fn, t) => this.setTimer(fn, t), ms, signal);
  }
  /** Moves time forward, firing each due timer at its own time; awaits microtasks between timers. */
  async advance(ms: number): Promise<void> {
    const end = this.current + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.current = Math.max(this.current, next.at);
      next.fn();
      await new Promise((r) => setTimeout(r, 0));
    }
    // Never backwards: another advance (a JumpClock's sleep) may have moved past this one's end meanwhile.
    this.current = Math.max(this.current, end);
  }
  /** Jumps forward without firing timers' side effects out of order (same as advance). */
  set(at: number): Promise<void> {
    return this.advance(Math.max(0, at - this.current));
  }
}
