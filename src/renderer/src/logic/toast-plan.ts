import type { NotificationPayload, Transition, TransitionKind, WatcherRef } from '../../../shared/contract';
import { transitionSeverity, type Severity } from '../../../shared/vocabulary';

/** One arrival to show: a transition of a watched message, or a notification the core sent. */
export type Toast = { key: string; kind: 'transition'; transition: Transition } | { key: string; kind: 'notification'; notification: NotificationPayload };

export type PlannedToast =
  { kind: 'single'; toast: Toast; kinds: TransitionKind[] } | { kind: 'summary'; count: number; watcher: WatcherRef | null; title: string };

/** How loud a toast is: a stuck message or an outage warns, a recovery is a success, the rest routine. */
export const toastSeverity = (t: Toast): Severity => (t.kind === 'transition' ? transitionSeverity(t.transition.kind) : (t.notification.severity ?? 'info'));

/** More routine toasts than this in one batch become one summary per watched address (warnings and recoveries never do). */
const BURST = 3;

/** The watch a change is grouped under: its first watched address, else its first feed. */
const watcherOf = (t: Transition): WatcherRef | null => t.watchers.find((w) => w.kind === 'address') ?? t.watchers[0] ?? null;
const groupKey = (w: WatcherRef | null): string => (w === null ? '' : w.kind === 'feed' ? `feed ${w.feedId}` : `address ${w.address}`);

/**
 * Turns a batch of arrivals into what to show: one toast per message (a message first seen already
 * delivered fires new and left_pending together: one toast, its latest state), and for a burst one
 * summary per watch ("36 changes on Relayer A").
 */
export function planToasts(toasts: readonly Toast[], labelOf: (watcher: WatcherRef) => string, burst = BURST): PlannedToast[] {
  const singles: Extract<PlannedToast, { kind: 'single' }>[] = [];
  const byMessage = new Map<string, Extract<PlannedToast, { kind: 'single' }>>();
  for (const t of toasts) {
    if (t.kind !== 'transition') {
      singles.push({ kind: 'single', toast: t, kinds: [] });
      continue;
    }
    const seen = byMessage.get(t.transition.messageId);
    if (seen) {
      seen.toast = t; // the latest state speaks for the message
      seen.kinds.push(t.transition.kind);
    } else {
      const s = { kind: 'single' as const, toast: t, kinds: [t.transition.kind] };
      byMessage.set(t.transition.messageId, s);
      singles.push(s);
    }
  }
  const routine = singles.filter((s) => toastSeverity(s.toast) === 'info');
  if (routine.length <= burst) return singles;
  const loud = singles.filter((s) => toastSeverity(s.toast) !== 'info');
  const groups = new Map<string, { watcher: WatcherRef | null; count: number; first: Extract<PlannedToast, { kind: 'single' }> }>();
  for (const s of routine) {
    const w = s.toast.kind === 'transition' ? watcherOf(s.toast.transition) : null;
    const g = groups.get(groupKey(w));
    if (g) g.count += Math.max(1, s.kinds.length);
    else groups.set(groupKey(w), { watcher: w, count: Math.max(1, s.kinds.length), first: s });
  }
  return [
    ...loud,
    ...[...groups.values()].map(({ watcher, ...g }): PlannedToast =>
      g.count === 1 ? g.first : { kind: 'summary', count: g.count, watcher, title: `${g.count} changes on ${watcher ? labelOf(watcher) : 'your watches'}` },
    ),
  ];
}
