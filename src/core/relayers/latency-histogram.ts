/**
 * Latencies kept as a count per value, not a list: memory grows with the distinct values (whole
 * seconds, as records carry times), not with the deliveries, and percentiles stay exact.
 */
import type { LatencyFigures } from '../../shared/relayers';
import { nearestRank } from '../store/stats';

export class LatencyHistogram {
  private readonly counts = new Map<number, number>();
  private total = 0;

  add(seconds: number): void {
    this.counts.set(seconds, (this.counts.get(seconds) ?? 0) + 1);
    this.total++;
  }

  /** p50 and p95 by nearest rank (as `percentile` over the sorted values); null when nothing was added. */
  figures(): LatencyFigures | null {
    if (!this.total) return null;
    const values = [...this.counts.keys()].sort((a, b) => a - b);
    const at = (p: number): number => {
      const rank = nearestRank(this.total, p);
      let below = 0;
      for (const v of values) {
        below += this.counts.get(v) as number;
        if (below > rank) return v;
      }
      return values[values.length - 1] as number;
    };
    return { p50: at(50), p95: at(95), count: this.total };
  }
}
