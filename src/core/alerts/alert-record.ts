import { sourceTitle } from '../../shared/sources';
import { visibleText } from '../../shared/visible-text';
import { routeLabel, type OwnChain } from '../../shared/chains';
import type { AlertRow, EpisodeOfRow } from './delivery-store';

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
  /** The data source it was seen on, in words ("Avalanche Data API"): Alertmanager inhibits alerts of a source that cannot be read by it. */
  source: string;
  /** On a relayer-silent or route-backlog episode's fire or resolve (then `messageId` is ''). */
  episode?: EpisodeOfRow;
}

/**
 * The record with its words made safe to show (labels, chain names and upstream reasons are not ours:
 * src/shared/visible-text.ts). `own`: your own nodes' chains while they are the data source (a route is
 * named by their names).
 */
export function toAlertRecord(
  row: AlertRow,
  labelOf: (watcherKey: string) => string,
  linkOf: (messageId: string) => string,
  own: readonly OwnChain[] = [],
): AlertRecord {
  const r = rawRecord(row, labelOf, linkOf, own);
  return {
    ...r,
    route: visibleText(r.route),
    watch: visibleText(r.watch),
    title: visibleText(r.title),
    body: visibleText(r.body),
    ...(r.episode ? { episode: { ...r.episode, subject: visibleText(r.episode.subject) } } : {}),
  };
}

function rawRecord(row: AlertRow, labelOf: (watcherKey: string) => string, linkOf: (messageId: string) => string, own: readonly OwnChain[]): AlertRecord {
  if (row.episode) return episodeRecord(row, row.episode, own);
  const labels = [...new Set(row.watchers.map((w) => labelOf(w) || w))].sort();
  return {
    key: `${row.messageId}:${row.kind}`,
    messageId: row.messageId,
    kind: row.kind,
    network: row.network,
    route: routeLabel(row.sourceChain, row.destinationChain, own),
    watch: labels.join(', '),
    title: row.title,
    body: row.body,
    at: row.at,
    link: linkOf(row.messageId),
    source: sourceTitle(row.source),
  };
}

/** An episode's record: its key is the episode's (key and start) plus the phase, the same on every replica. */
function episodeRecord(row: AlertRow, e: EpisodeOfRow, own: readonly OwnChain[]): AlertRecord {
  return {
    key: `${e.key}@${new Date(e.startedAt).toISOString()}:${e.phase}`,
    messageId: '',
    kind: e.phase === 'fire' ? row.kind : `${row.kind}_resolved`,
    network: row.network,
    route: row.sourceChain ? routeLabel(row.sourceChain, row.destinationChain, own) : '',
    watch: e.subject,
    title: row.title,
    body: row.body,
    at: row.at,
    link: '',
    source: sourceTitle(row.source),
    episode: e,
  };
}
