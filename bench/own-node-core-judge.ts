/**
 * How `bench:own-node` judges the core: its transitions against what the chains did (their logs, see
 * own-node-chain-truth.ts). 0 missed, 0 duplicate, 0 unexpected (`stuck` counted apart: the chains'
 * truth has none in a run shorter than the threshold), and each kind's detection p95, from the
 * transaction mined to the core's report, within 2 of the core's intervals plus the service's own
 * bound (its poll, the confirmation depth's time and one scan's reading).
 */
import { compare, percentile, type Detection, type ExpectedTransition } from '../test/support/ground-truth';
import type { Injected } from './inject';

const KINDS = { sends: 'new', deliveries: 'left_pending', receipts: 'receipt_delivered' } as const;

export function judgeCore(
  truth: ReadonlyMap<string, ExpectedTransition>,
  reported: readonly Detection[],
  o: { intervalMs: number; serviceTargetMs: number; injected: Injected },
) {
  const stuck = reported.filter((d) => d.kind === 'stuck').length;
  const c = compare(
    truth,
    reported.filter((d) => d.kind !== 'stuck'),
  );
  const targetP95Ms = Math.round(2 * o.intervalMs + o.serviceTargetMs);
  const detection = Object.fromEntries(
    Object.entries(KINDS).map(([name, kind]) => {
      const ms = c.hits
        .filter((h) => h.key.endsWith(`:${kind}`))
        .map((h) => Math.max(0, h.detectedAt - h.happenedAt))
        .sort((x, y) => x - y);
      const expected = [...truth.keys()].filter((k) => k.endsWith(`:${kind}`)).length;
      return [name, { expected, reported: ms.length, p50: percentile(ms, 50), p95: percentile(ms, 95), max: ms.at(-1) ?? null }];
    }),
  ) as Record<keyof typeof KINDS, { expected: number; reported: number; p50: number | null; p95: number | null; max: number | null }>;
  const p95s = Object.values(detection).map((d) => d.p95);
  // No hit of a kind the chains had (null) misses the latency target.
  const worstP95 = p95s.some((p, i) => p === null && Object.values(detection)[i]!.expected > 0) ? null : Math.max(0, ...p95s.map((p) => p ?? 0));
  return {
    figures: {
      intervalSeconds: o.intervalMs / 1000,
      expected: truth.size,
      missed: c.missed.length,
      firstMissed: c.missed.slice(0, 5),
      injected: o.injected,
      duplicates: c.duplicates,
      unexpected: c.unexpected.length,
      firstUnexpected: c.unexpected.slice(0, 5),
      stuck: { count: stuck, judged: false, why: "the chains' logs say nothing of stuck: counted apart, neither hits nor unexpected" },
      detectionMs: { ...detection, targetP95: targetP95Ms },
    },
    targets: {
      coreMissed: [c.missed.length, 0] as [number, number],
      coreDuplicates: [c.duplicates, 0] as [number, number],
      coreUnexpected: [c.unexpected.length, 0] as [number, number],
      coreP95Ms: [worstP95, targetP95Ms] as [number | null, number],
    },
  };
}
