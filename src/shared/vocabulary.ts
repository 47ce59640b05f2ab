/**
 * The one vocabulary: how every view, notification, alert, log line and metric help names a message's
 * status, a transition and an alert's severity. Change a word here and it changes everywhere.
 */
import type { TransitionKind } from './contract/settings';
import type { ErrorKind } from './errors';

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

/**
 * Words an earlier version showed for an event and no view may show again: a person read "left pending"
 * in one place and "Message delivered" in another for the same change. The UI's vocabulary test fails on them.
 */
export const RETIRED_EVENT_WORDS = ['left pending', 'leave pending', 'leaves pending', 'leaving pending'] as const;

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

/** An alert episode's words: its name in Activity's filter, the titles of its start and end, and how loudly each speaks. */
interface EpisodeWords {
  label: string;
  fire: (name: string) => string;
  resolve: (name: string) => string;
  severity: Record<'fire' | 'resolve', Severity>;
}

/**
 * Every kind of alert episode (fired and resolved by the core's alert rules, listed in Activity beside the
 * message transitions, logged, announced). A new kind is one entry here: the contract's kind list, Activity's
 * filter, its rows and the log line take it from this table.
 */
export const EPISODE_WORDS = {
  relayer_silent: {
    label: 'relayer silent',
    fire: (n) => `Relayer silent: ${n}`,
    resolve: (n) => `Relayer delivering again: ${n}`,
    severity: { fire: 'warning', resolve: 'success' },
  },
  route_backlog: {
    label: 'route backlog',
    fire: (n) => `Route backlog: ${n}`,
    resolve: (n) => `Route backlog cleared: ${n}`,
    severity: { fire: 'warning', resolve: 'success' },
  },
  fuel_low: {
    label: 'fuel low',
    fire: (n) => `Relayer low on gas: ${n}`,
    resolve: (n) => `Relayer refilled: ${n}`,
    severity: { fire: 'warning', resolve: 'success' },
  },
  route_failed_executions: {
    label: 'failed executions',
    fire: (n) => `Failed executions on ${n}`,
    resolve: (n) => `Failed executions back under the threshold: ${n}`,
    severity: { fire: 'warning', resolve: 'success' },
  },
  /** A watched relayer's own metrics against the chains (src/core/parts/relayer-metrics-watch.ts). */
  relayer_claims_unseen: {
    label: 'relayer claims unseen deliveries',
    fire: (n) => `Relayer claims deliveries the chains don't show: ${n}`,
    resolve: (n) => `Relayer's and chains' counts agree again: ${n}`,
    severity: { fire: 'warning', resolve: 'success' },
  },
  relayer_failures: {
    label: 'relayer failing',
    fire: (n) => `Relays failing: ${n}`,
    resolve: (n) => `Relay failures back under the threshold: ${n}`,
    severity: { fire: 'warning', resolve: 'success' },
  },
  /** Not seeing (src/core/parts/source-health.ts): the data source, or one of your own nodes, cannot be read. */
  source_down: {
    label: "can't read the source",
    fire: (n) => `Can't read ${n}`,
    resolve: (n) => `${n} read again`,
    severity: { fire: 'warning', resolve: 'success' },
  },
  chain_down: {
    label: "can't read a chain",
    fire: (n) => `Can't read ${n}`,
    resolve: (n) => `${n} read again`,
    severity: { fire: 'warning', resolve: 'success' },
  },
} satisfies Record<string, EpisodeWords>;

/**
 * A relayer-silent episode can end two ways; only one is the relayer delivering. When it ends because no
 * message on its routes waits past its threshold any more, the title says so, not "delivering again".
 */
export const silenceClearedTitle = (n: string): string => `Relayer silent cleared: ${n}`;

export type EpisodeKind = keyof typeof EPISODE_WORDS;
export const EPISODE_KINDS = Object.keys(EPISODE_WORDS) as [EpisodeKind, ...EpisodeKind[]];
export const SEVERITIES = ['warning', 'success', 'info'] as const satisfies readonly Severity[];
/** A severity as Activity's filter names it. */
export const SEVERITY_WORDS: Record<Severity, string> = { warning: 'warning', success: 'recovery', info: 'routine' };

/** What an alert entry did, in one word: a quiet close (routine) is not a recovery. */
export const alertPhaseWord = (e: { phase: 'fire' | 'resolve'; severity: Severity }): string =>
  e.phase === 'fire' ? 'fired' : e.severity === 'info' ? 'closed' : 'resolved';

/** An episode closed without an announcement (its relayer or route no longer watched, its alert turned off): routine. */
export const closedWords = (kind: EpisodeKind, subject: string): { title: string; body: string } => {
  const label = EPISODE_WORDS[kind].label;
  return {
    title: `${label[0]!.toUpperCase()}${label.slice(1)} closed: ${subject}`,
    body: `No longer watched, or its alert was turned off: closed without an announcement.`,
  };
};

/** How loudly an episode's start or end speaks; one closed quietly is routine. */
export const alertSeverity = (kind: EpisodeKind, phase: 'fire' | 'resolve', quiet = false): Severity => (quiet ? 'info' : EPISODE_WORDS[kind].severity[phase]);

/** What a fire or resolve says in one line (the log, the headless watcher's console): its title, then its body. */
export const alertSentence = (e: { title: string; body: string }): string => `${e.title} — ${e.body}`;

/** Every word a view may show for an event (a transition, an alert kind): the UI's vocabulary test checks event labels against it. */
export const EVENT_VOCABULARY: ReadonlySet<string> = new Set([
  ...Object.values(TRANSITION_WORDS).flatMap((w) => [w.label, w.title]),
  ...Object.values(EPISODE_WORDS).map((w) => w.label),
]);

/** An error's kind in words (the status bar's last error); the raw kind stays in data attributes. */
export const ERROR_KIND_WORDS: Record<ErrorKind, string> = {
  network: 'network',
  timeout: 'timeout',
  rate_limited: 'rate limited',
  unauthorized: 'unauthorized',
  bad_request: 'bad request',
  not_found: 'not found',
  server: 'server error',
  invalid_response: 'invalid response',
  invalid_input: 'invalid input',
  keychain_unavailable: 'keychain unavailable',
  internal: 'internal error',
};
