import { sleepOn, type Clock } from '../../src/shared/clock';

/**
 * Real time sped up by `factor`, anchored so that several processes built with the same
 * (base, anchor, factor) agree on the time: now = base + (Date.now() - anchor) × factor.
 */
export class ScaledClock implements Clock {
  constructor(
    private readonly base: number,
    private readonly anchor: number,
    private readonly factor: number,
  ) {}
  now(): number {
    return Math.floor(this.base + (Date.now() - this.anchor) * this.factor);
  }
  setTimer(fn: () => void, ms: number): () => void {
    const t = setTimeout(fn, Math.max(0, ms) / this.factor);
    return () => clearTimeout(t);
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepOn((fn, t) => this.setTimer(fn, t), ms, signal);
  }
}
