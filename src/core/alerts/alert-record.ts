import { routeLabel } from '../watch/route-label';
import type { AlertRow } from './delivery-store';

/** One transition as every alert channel sends it. Labels are the same on every replica of one config. */
export interface AlertRecord {
  /** `<messageId>:<kind>`: the same on every replica, so receivers can deduplicate. */
  key: string;
  messageId: string;
  kind: string;
  network: string;
  route: string;
  /** Labels of the watches and feeds that asked for it, sorted and joined with ", " (addresses when unlabelled). */
  watch: string;
  title: string;
  body: string;
  /** When the transition was detected (ms). */
  at: number;
  link: string;
}

export function toAlertRecord(row: AlertRow, labelOf: (watcherKey: string) => string, linkOf: (messageId: string) => string): AlertRecord {
  const labels = [...new Set(row.watchers.map((w) => labelOf(w) || w))].sort();
  return {
    key: `${row.messageId}:${row.kind}`,
    messageId: row.messageId,
    kind: row.kind,
    network: row.network,
    route: routeLabel(row.sourceChain, row.destinationChain),
    watch: labels.join(', '),
    title: row.title,
    body: row.body,
    at: row.at,
    link: linkOf(row.messageId),
  };
}
