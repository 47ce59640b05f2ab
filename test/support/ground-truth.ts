/**
 * The one ground truth tests and benchmarks judge the monitor against: every record change the local
 * service's simulator makes (RunningService.onRecordChange), and the transitions those changes imply for
 * the watched addresses. Plain Node (no vitest): the benchmarks import it too.
 *
 * A transition is expected when its change became visible at or after the baseline: what was visible
 * before the baseline is the baseline itself (history, never news). Each expected transition keeps when
 * it happened on chain and when it became visible in the list (later by the indexing lag, if any).
 */
import type { RecordChange } from '../../src/local-service';
import { chainByBlockchainId } from '../../src/shared/chains';

export type TransitionKind = 'new' | 'left_pending' | 'receipt_delivered' | 'stuck';

/** One expected transition, keyed `<messageId>:<kind>`. */
export interface ExpectedTransition {
  happenedAt: number;
  visibleAt: number;
  /** Either way is right (a `stuck` whose delivery became visible about when it fell due, or near an edge of the run): never missed, never unexpected. */
  optional?: true;
  /**
   * A stated limit of the monitor's (docs/limits.md) covers it: either way, and when not reported it is
   * counted apart by the limit's name (Comparison.limits), never silent. Set by the bench (bench/stated-limits.ts).
   */
  limit?: string;
}

/** A transition the monitor reported, at its clock time. */
export interface Detection {
  id: string;
  kind: string;
  at: number;
}

interface State {
  status: string;
  receiptDelivered: boolean;
}

interface Step extends State {
  happenedAt: number;
  visibleAt: number;
}

interface History {
  /** The stored state when the truth first saw this record change (visible before any baseline), if any. */
  prior: State | null;
  steps: Step[];
  /** The latest version of the record (for the watched filter). */
  record: Record<string, unknown>;
}

/** What the truth listens to: the running local service, or a stand-in in unit tests. */
export interface ChangeSource {
  onRecordChange(listener: (changes: readonly RecordChange[]) => void): () => void;
  store: { get(messageId: string): Record<string, unknown> | null | undefined };
}

export interface ExpectOptions {
  /** Changes visible at or after this clock time are news; earlier ones are the baseline. */
  baselineAt: number;
  /** Watched addresses (any case), or a predicate over the record's latest version (a feed's filter). */
  watched: ReadonlySet<string> | ((record: Record<string, unknown>) => boolean);
  /** Only records whose source chain is on this network (default: any). */
  network?: 'mainnet' | 'fuji';
  /** Expect `stuck` as the engine fires it (src/core/watch/engine.ts); absent: no `stuck` is expected. */
  stuck?: StuckRule;
  /** False for route watches: the engine follows a route's message until its delivery, not its receipt (default true). */
  receipts?: boolean;
}

/**
 * The engine's `stuck`: a watched message still pending `thresholdMs` after it was sent (its source
 * timestamp), once, when it is first seen if it appears later than that; silent for one already over
 * the threshold when the watch began. A poller learns of a delivery one re-check after it became
 * visible, so a delivery visible within `marginMs` of the moment is either way, as is a moment within
 * `marginMs` of the watch's start or of `endAt` (when the run stopped polling).
 */
export interface StuckRule {
  thresholdMs: number;
  endAt: number;
  marginMs: number;
  /**
   * A late record (an indexer stall's catch-up) is found up to this long after it appears, so one whose
   * delivery became visible within this long of the record may be first seen delivered: either way
   * (absent: 0, only `marginMs` around the moment).
   */
  lateSightingMs?: number;
}

const stateOf = (r: Record<string, unknown>): State => ({ status: String(r.status), receiptDelivered: r.receiptDelivered === true });

export class GroundTruth {
  private readonly histories = new Map<string, History>();
  private unsubscribe: (() => void) | null = null;

  /** Starts recording every change `source` reports (call before the traffic it should judge). */
  static listen(source: ChangeSource): GroundTruth {
    const truth = new GroundTruth();
    truth.unsubscribe = source.onRecordChange((changes) => truth.add(changes, (id) => source.store.get(id)));
    return truth;
  }

  /** Records a batch of changes; `stored` gives a record's state before this batch (first sight only). */
  add(changes: readonly RecordChange[], stored: (messageId: string) => Record<string, unknown> | null | undefined = () => null): void {
    for (const { record, happenedAt, visibleAt } of changes) {
      const id = String(record.messageId);
      let h = this.histories.get(id);
      if (!h) {
        const before = stored(id);
        h = { prior: before ? stateOf(before) : null, steps: [], record };
        this.histories.set(id, h);
      }
      h.steps.push({ ...stateOf(record), happenedAt, visibleAt });
      h.record = record;
    }
  }

  /** Records seen changing so far. */
  get size(): number {
    return this.histories.size;
  }

  /** The latest version of a record the truth saw change. */
  latest(messageId: string): Record<string, unknown> | undefined {
    return this.histories.get(messageId)?.record;
  }

  /** What the truth knows of one record: its state before it listened, and each change since (for debugging a miss). */
  history(messageId: string): { prior: { status: string; receiptDelivered: boolean } | null; steps: readonly Step[] } | undefined {
    return this.histories.get(messageId);
  }

  /**
   * Records as they were stored before the truth listened (a preload's), for the ones it has not seen
   * change: a message pending all along becomes `stuck` without any change the truth would hear of.
   */
  knowStored(records: Iterable<Record<string, unknown>>): void {
    for (const record of records) {
      const id = String(record.messageId);
      if (!this.histories.has(id)) this.histories.set(id, { prior: stateOf(record), steps: [], record });
    }
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** `<messageId>:<kind>` → when it happened and became visible, for every watched record. */
  expected(o: ExpectOptions): Map<string, ExpectedTransition> {
    const watched = o.watched;
    const mine =
      typeof watched === 'function'
        ? watched
        : (() => {
            const lower = new Set([...watched].map((a) => a.toLowerCase()));
            return (r: Record<string, unknown>) => lower.has(String(r.from).toLowerCase()) || lower.has(String(r.to).toLowerCase());
          })();
    const out = new Map<string, ExpectedTransition>();
    for (const [id, h] of this.histories) {
      if (o.network && (chainByBlockchainId(String(h.record.sourceBlockchainId))?.network ?? 'mainnet') !== o.network) continue;
      if (!mine(h.record)) continue;
      // The state the baseline saw: the prior stored state, then every change visible before it.
      let seen: State | null = h.prior;
      for (const s of h.steps) if (s.visibleAt < o.baselineAt) seen = s;
      const stuck = o.stuck ? stuckOf(h, o.baselineAt, o.stuck) : null;
      if (stuck) out.set(`${id}:stuck`, stuck);
      const news = h.steps.filter((s) => s.visibleAt >= o.baselineAt);
      if (!news.length) continue;
      const at = (s: Step): ExpectedTransition => ({ happenedAt: s.happenedAt, visibleAt: s.visibleAt });
      if (!seen) out.set(`${id}:new`, at(news[0]!));
      if (!seen || seen.status === 'pending') {
        const left = news.find((s) => s.status !== 'pending');
        if (left) out.set(`${id}:left_pending`, at(left));
      }
      if (o.receipts !== false && !seen?.receiptDelivered) {
        const rd = news.find((s) => s.receiptDelivered);
        if (rd) out.set(`${id}:receipt_delivered`, at(rd));
      }
    }
    return out;
  }
}

/** When the engine fires `stuck` for this record (see StuckRule), or null when it does not. */
function stuckOf(h: History, baselineAt: number, rule: StuckRule): ExpectedTransition | null {
  const sentS = (h.record.sourceTransaction as { timestamp?: unknown } | undefined)?.timestamp;
  if (typeof sentS !== 'number') return null;
  const firstVisible = h.prior ? -Infinity : (h.steps[0]?.visibleAt ?? Infinity);
  const at = Math.max(sentS * 1000 + rule.thresholdMs, firstVisible);
  if (at < baselineAt - rule.marginMs || at > rule.endAt) return null;
  const left = h.prior && h.prior.status !== 'pending' ? -Infinity : (h.steps.find((s) => s.status !== 'pending')?.visibleAt ?? Infinity);
  if (left <= at - rule.marginMs) return null;
  const near = (t: number) => Math.abs(t - at) < rule.marginMs;
  const seenDelivered = left < firstVisible + (rule.lateSightingMs ?? 0);
  const optional = near(left) || seenDelivered || near(baselineAt) || near(rule.endAt);
  return { happenedAt: at, visibleAt: at, ...(optional ? { optional: true as const } : {}) };
}

/** One expected transition the monitor reported, with when it did (its first report). */
export interface Hit extends ExpectedTransition {
  key: string;
  detectedAt: number;
}

export interface Comparison {
  /** Expected and never reported. */
  missed: string[];
  /** Reports beyond the first of the same `<id>:<kind>` (expected or not). */
  duplicates: number;
  /** Reported but not expected (each key once). */
  unexpected: string[];
  /** Expected and reported. */
  hits: Hit[];
  /** Expected under a stated limit and not reported, by the limit's name. */
  limits: Record<string, number>;
}

/** Judges the monitor's reports against the expected transitions. */
export function compare(expected: ReadonlyMap<string, ExpectedTransition>, detected: readonly Detection[]): Comparison {
  const first = new Map<string, number>();
  let duplicates = 0;
  for (const d of detected) {
    const k = `${d.id}:${d.kind}`;
    if (first.has(k)) duplicates++;
    else first.set(k, d.at);
  }
  const missed: string[] = [];
  const hits: Hit[] = [];
  const limits: Record<string, number> = {};
  for (const [key, e] of expected) {
    const at = first.get(key);
    if (at !== undefined) hits.push({ key, ...e, detectedAt: at });
    else if (e.limit !== undefined) limits[e.limit] = (limits[e.limit] ?? 0) + 1;
    else if (!e.optional) missed.push(key);
  }
  const unexpected = [...first.keys()].filter((k) => !expected.has(k));
  return { missed, duplicates, unexpected, hits, limits };
}

/** The p-th percentile (nearest rank) of ascending numbers; null when there are none. */
export const percentile = (sorted: readonly number[], p: number): number | null =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]! : null;

/**
 * Detection latencies. Records visible within `lateAfterMs` of happening (an indexer's usual few
 * seconds, or the simulator's write tick) count from when they happened; late records (visible later
 * than that) are listed apart, with their lag and the time from visible to reported.
 */
export function latencies(hits: readonly Hit[], lateAfterMs = 0): { onTime: number[]; late: { lag: number; afterVisible: number }[] } {
  const onTime: number[] = [];
  const late: { lag: number; afterVisible: number }[] = [];
  for (const h of hits) {
    if (h.visibleAt - h.happenedAt > lateAfterMs) late.push({ lag: h.visibleAt - h.happenedAt, afterVisible: h.detectedAt - h.visibleAt });
    else onTime.push(h.detectedAt - h.happenedAt);
  }
  onTime.sort((a, b) => a - b);
  return { onTime, late };
}
