/**
 * The records each data source sent that were skipped at the boundary (src/shared/record-bounds.ts):
 * counted by reason for the poll status and /metrics, and said in the log once per data source and
 * reason (the first one, with its field; later ones are only counted), never once per record.
 */
import type { Clock } from '../../shared/clock';
import { skipReasonText, type RecordSkip, type RecordSkipReason, type SkippedRecords } from '../../shared/record-bounds';
import type { Logger } from '../log/logger';
import { SKIPPED_COUNT_SOURCES } from '../../shared/policy';

export class SkippedRecordTally {
  private readonly bySource = new Map<string, SkippedRecords>();
  private readonly logged = new Set<string>();

  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** Counts into /metrics: `source` is the data source in words (its title, src/shared/sources.ts). */
    private readonly count?: (reason: RecordSkipReason, source: string, n: number) => void,
  ) {}

  /** Records skipped in one answer from the data source at `baseUrl` (of kind `source`, at `host`). */
  note(baseUrl: string, source: string, host: string, skips: readonly RecordSkip[]): void {
    if (!skips.length) return;
    const now = this.clock.now();
    let s = this.bySource.get(baseUrl);
    if (!s) {
      if (this.bySource.size >= SKIPPED_COUNT_SOURCES) this.bySource.delete(this.bySource.keys().next().value!);
      s = { total: 0, byReason: {}, since: now, lastAt: now, last: skips[0]! };
      this.bySource.set(baseUrl, s);
    }
    for (const k of skips) {
      s.total++;
      s.byReason[k.reason] = (s.byReason[k.reason] ?? 0) + 1;
      this.count?.(k.reason, source, 1);
      const key = `${baseUrl}\n${k.reason}`;
      if (!this.logged.has(key)) {
        this.logged.add(key);
        this.logger.warn(`data source record skipped: ${skipReasonText(k.reason)}`, {
          host,
          reason: k.reason,
          field: k.field,
          messageId: k.messageId,
          then: 'never stored; later ones of this kind are only counted (poll status, teleporter_watch_skipped_records_total)',
        });
      }
    }
    s.lastAt = now;
    s.last = skips[skips.length - 1]!;
  }

  /** What the poll status shows for the data source at `baseUrl` (undefined: nothing skipped from it). */
  status(baseUrl: string | null): SkippedRecords | undefined {
    const s = baseUrl === null ? undefined : this.bySource.get(baseUrl);
    return s ? { ...s, byReason: { ...s.byReason } } : undefined;
  }
}
