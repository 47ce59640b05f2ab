/** Ground truth for the benchmarks: every record change the local service's store receives, and the transitions it implies. */
import { chainByBlockchainId } from '../src/shared/chains';
import type { Clock } from '../src/shared/clock';
import type { startTeleporterService } from '../src/local-data-api';

type Service = Awaited<ReturnType<typeof startTeleporterService>>;

export interface Change {
  at: number;
  status: string;
  rd: boolean;
}

export const percentile = (sorted: number[], p: number) =>
  sorted.length ? (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number) : null;

/** Wraps the service store's writes to keep every record change with its simulated time. */
export function recordChanges(svc: Service, clock: Clock): Map<string, Change[]> {
  const history = new Map<string, Change[]>();
  const original = svc.store.upsertMany.bind(svc.store);
  svc.store.upsertMany = (records: readonly unknown[]) => {
    for (const r of records as Record<string, unknown>[]) {
      const id = r.messageId as string;
      let list = history.get(id);
      if (!list) {
        const before = svc.store.get(id);
        list = before ? [{ at: 0, status: before.status as string, rd: before.receiptDelivered === true }] : [];
        history.set(id, list);
      }
      list.push({ at: clock.now(), status: r.status as string, rd: r.receiptDelivered === true });
    }
    original(records);
  };
  return history;
}

/**
 * `<id>:<kind>` → when it happened, for every message on `network` to or from a watched address (every
 * simulator address is watched; the relayers' receipt re-sends, relayer to the zero address, are not).
 */
export function expectedTransitions(
  svc: Service,
  history: Map<string, Change[]>,
  baselineAt: number,
  watched: ReadonlySet<string>,
  network = 'mainnet',
): Map<string, number> {
  const expected = new Map<string, number>();
  for (const [id, list] of history) {
    const rec = svc.store.get(id);
    if (!rec || (chainByBlockchainId(rec.sourceBlockchainId as string)?.network ?? 'mainnet') !== network) continue;
    if (!watched.has(rec.from as string) && !watched.has(rec.to as string)) continue;
    const before = [...list].reverse().find((h) => h.at < baselineAt);
    const after = list.filter((h) => h.at >= baselineAt);
    if (!before) {
      if (!after.length) continue;
      expected.set(`${id}:new`, after[0]!.at);
      const left = after.find((h) => h.status !== 'pending');
      if (left) expected.set(`${id}:left_pending`, left.at);
      const rd = after.find((h) => h.rd);
      if (rd) expected.set(`${id}:receipt_delivered`, rd.at);
    } else {
      const left = before.status === 'pending' ? after.find((h) => h.status !== 'pending') : undefined;
      if (left) expected.set(`${id}:left_pending`, left.at);
      const rd = !before.rd ? after.find((h) => h.rd) : undefined;
      if (rd) expected.set(`${id}:receipt_delivered`, rd.at);
    }
  }
  return expected;
}

/** Compares detections with the truth: missed, duplicates, unexpected, and detection latencies (sorted). */
export function compare(expected: Map<string, number>, detected: { id: string; kind: string; at: number }[]) {
  const seen = new Map<string, number>();
  let duplicates = 0;
  for (const d of detected) {
    const k = `${d.id}:${d.kind}`;
    if (seen.has(k)) duplicates++;
    else seen.set(k, d.at);
  }
  const missed = [...expected.keys()].filter((k) => !seen.has(k) && !k.endsWith(':stuck'));
  const unexpected = [...seen.keys()].filter((k) => !expected.has(k));
  const latencies = [...expected.entries()]
    .filter(([k]) => seen.has(k))
    .map(([k, at]) => (seen.get(k) as number) - at)
    .sort((a, b) => a - b);
  return { missed, duplicates, unexpected, latencies };
}
