/** How `npm run bench:headless` judges detection and tallies a fair poller, as `npm run bench` does. */
import { latencies, percentile, type Comparison } from '../test/support/ground-truth';

const ms = (n: number | null) => (n === null ? null : Math.round(n));

/**
 * Detection latency of the hits: on-time records (visible within one interval of happening) from when
 * they happened, p95 ≤ 2 and p99 ≤ 6 intervals; late records each within their lag + 2 intervals.
 */
export function judgeDetection(c: Comparison, intervalMs: number) {
  const { onTime, late } = latencies(c.hits, intervalMs);
  const inIntervals = (v: number | null) => (v === null ? null : Math.round((v / intervalMs) * 100) / 100);
  const overLagPlus2Intervals = late.filter((l) => l.afterVisible > 2 * intervalMs).length;
  const p95Intervals = inIntervals(percentile(onTime, 95));
  const p99Intervals = inIntervals(percentile(onTime, 99));
  return {
    figures: {
      onTime: {
        count: onTime.length,
        latencyMs: { p50: ms(percentile(onTime, 50)), p95: ms(percentile(onTime, 95)), p99: ms(percentile(onTime, 99)), max: ms(onTime.at(-1) ?? null) },
        p95Intervals,
        p99Intervals,
      },
      late: {
        count: late.length,
        maxLagMs: Math.round(late.reduce((m, l) => Math.max(m, l.lag), 0)),
        maxAfterVisibleMs: Math.round(late.reduce((m, l) => Math.max(m, l.afterVisible), 0)),
        overLagPlus2Intervals,
      },
    },
    // With no on-time record at all (null), the latency targets are missed: nothing was measured.
    targets: {
      p95Intervals: [p95Intervals, 2] as [number | null, number],
      p99Intervals: [p99Intervals, 6] as [number | null, number],
      lateOverBound: [overLagPlus2Intervals, 0] as [number, number],
    },
  };
}

/** A fair poller's misses, requests (its silent first read, then the rest) and detection, beside ours. */
export function tallyPoller(c: Comparison, baseline: number, total: number, oursTotal: number, intervalMs: number) {
  const { onTime } = latencies(c.hits, intervalMs);
  return {
    run: true,
    missed: c.missed.length,
    duplicates: c.duplicates,
    unexpected: c.unexpected.length,
    requests: { baseline, afterBaseline: total - baseline, total },
    onTimeDetectionMs: { p50: ms(percentile(onTime, 50)), p95: ms(percentile(onTime, 95)) },
    oursOverThis: Math.round((oursTotal / Math.max(1, total)) * 1000) / 1000,
  };
}
