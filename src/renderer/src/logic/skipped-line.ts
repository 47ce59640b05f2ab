/**
 * The status bar's word on records the data source sent that were skipped at the boundary: "skipped 3
 * records: timestamp out of range", and a title that says what that means and where to look.
 */
import type { MessagePage, PollStatus } from '../../../shared/contract';
import { skipReasonText, type RecordSkipReason } from '../../../shared/record-bounds';

interface SkippedLine {
  text: string;
  title: string;
}

const fmt = (n: number) => n.toLocaleString('en-US');
const time = (ms: number) => new Date(ms).toLocaleTimeString();

/** The line, or null when nothing was skipped from the current data source. */
export function skippedLine(p: PollStatus): SkippedLine | null {
  const s = p.skippedRecords;
  if (!s || s.total === 0) return null;
  const reasons = (Object.entries(s.byReason) as [RecordSkipReason, number][]).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  const words = reasons.length === 1 ? skipReasonText(reasons[0]![0]) : reasons.map(([r, n]) => `${skipReasonText(r)} ${fmt(n)}`).join(', ');
  const last = s.last.messageId === null ? 'a record' : `message ${s.last.messageId}`;
  return {
    text: `skipped ${fmt(s.total)} record${s.total === 1 ? '' : 's'}: ${words}`,
    title:
      `The data source sent records Teleporter Watch cannot use (a field out of range or malformed): they are skipped, never stored, ` +
      `and polling goes on. Since ${time(s.since)}; the latest at ${time(s.lastAt)}: ${last}, field ${s.last.field} (${skipReasonText(s.last.reason)}). ` +
      `Each kind is logged once in core.log; /metrics counts them (teleporter_watch_skipped_records_total).`,
  };
}

/** Why a browsed page's records were skipped: "timestamp out of range ×2, malformed ×1". */
export function pageSkippedWhy(page: MessagePage): string {
  const counts = new Map<RecordSkipReason, number>();
  for (const k of page.skipped ?? []) counts.set(k.reason, (counts.get(k.reason) ?? 0) + 1);
  if (!counts.size) return 'no usable message ID';
  return [...counts].map(([r, n]) => `${skipReasonText(r)} ×${fmt(n)}`).join(', ');
}
