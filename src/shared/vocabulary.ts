/**
 * The one vocabulary: how every view, notification, alert, log line and metric help names a message's
 * status, a transition and an alert's severity. Change a word here and it changes everywhere.
 */
import type { TransitionKind } from './contract/settings';

/** The arrow between a route's chains and between two states, everywhere. */
export const ARROW = '→';

/** A message status in words (the API's raw value stays in CSV exports and data attributes). */
const STATUS_WORDS: Record<string, string> = {
  pending: 'pending',
  delivered: 'delivered',
  delivered_source_not_indexed: 'delivered (source not indexed)',
};

/** A status in words; an unknown one is named as such, not hidden. */
export const statusWord = (status: string): string => STATUS_WORDS[status] ?? (status ? `unknown: ${status}` : 'unknown status');

/** A transition, as a short label (Activity, Charts, filters) and as a notification title. */
export const TRANSITION_WORDS: Record<TransitionKind, { label: string; title: string }> = {
  new: { label: 'new', title: 'New message' },
  left_pending: { label: 'delivered', title: 'Message delivered' },
  receipt_delivered: { label: 'receipt delivered', title: 'Receipt delivered' },
  stuck: { label: 'stuck', title: 'Message stuck' },
  delivery_undone: { label: 'delivery undone', title: 'Delivery undone by a reorg' },
  receipt_undone: { label: 'receipt undone', title: 'Receipt undone by a reorg' },
};

/** What a transition changed, in words: "pending → delivered"; a receipt says "receipt delivered", not "delivered → delivered". */
export function changeWords(t: { kind: TransitionKind; fromStatus: string | null; toStatus: string }): string {
  if (t.kind === 'receipt_delivered') return 'receipt delivered';
  if (t.kind === 'stuck') return `${statusWord(t.toStatus)} too long`;
  return t.fromStatus === null ? `first seen ${statusWord(t.toStatus)}` : `${statusWord(t.fromStatus)} ${ARROW} ${statusWord(t.toStatus)}`;
}

/**
 * How loudly an alert speaks. warning: an outage or a stuck message (a person should act); success: a
 * recovery; info: a routine update. A warning is never merged into a summary and stays until dismissed.
 */
export type Severity = 'warning' | 'success' | 'info';

/** A transition's severity: a stuck message and a delivery or receipt a reorg undid are warnings, the rest routine. */
export const transitionSeverity = (kind: string): Severity =>
  kind === 'stuck' || kind === 'delivery_undone' || kind === 'receipt_undone' ? 'warning' : 'info';

/** A relayer-silent or route-backlog episode: its start is a warning, its end a recovery. */
export const episodeSeverity = (phase: 'fire' | 'resolve'): Severity => (phase === 'fire' ? 'warning' : 'success');
