/**
 * `listActivity`: the transition log and the alert entries as one timeline, newest first (by time; an
 * alert above a transition of the same moment: it was decided after that cycle's transitions; then by ID).
 * Each side reads at most one more than the page from its own index and the two are merged, so a page
 * costs two short index walks however long the log. The cursor is a place in that order, so entries
 * arriving later (always later in time) never shift a page already read.
 */
import type { ActivityCursor, ActivityItem, ActivityPage, MonitorHandlers, TransitionKind } from '../../shared/contract';
import { UNDO_KINDS, TRANSITION_KINDS } from '../../shared/schemas';
import { transitionSeverity } from '../../shared/vocabulary';
import type { Store } from '../store';

type ActivityQuery = Parameters<MonitorHandlers['listActivity']>[0];

const ALL_KINDS: readonly TransitionKind[] = [...TRANSITION_KINDS, ...UNDO_KINDS];
const DEFAULT_LIMIT = 100;

const rank = (i: ActivityItem) => (i.kind === 'alert' ? 1 : 0);
const newestFirst = (a: ActivityItem, b: ActivityItem) => b.at - a.at || rank(b) - rank(a) || b.id - a.id;
const cursorOf = (i: ActivityItem): ActivityCursor => ({ at: i.at, kind: i.kind === 'alert' ? 'alert' : 'message', id: i.id });

/** The message kinds asked for, narrowed to the severities asked for (undefined: every kind). */
function messageKinds(q: ActivityQuery): readonly TransitionKind[] | undefined {
  if (!q.severities) return q.kinds;
  const severities = q.severities;
  return (q.kinds ?? ALL_KINDS).filter((k) => severities.includes(transitionSeverity(k)));
}

export function listActivity(store: Pick<Store, 'transitions' | 'alertEntries'>, q: ActivityQuery): ActivityPage {
  const limit = q.limit ?? DEFAULT_LIMIT;
  const kinds = messageKinds(q);
  const before = q.before;
  const transitions =
    kinds?.length === 0
      ? []
      : store.transitions.timeline({
          ...(kinds ? { kinds } : {}),
          ...(q.address ? { address: q.address } : {}),
          ...(before ? { before } : {}),
          limit: limit + 1,
        });
  // An alert is nobody's message: an address's Activity has none.
  const alerts =
    q.address || q.alertKinds?.length === 0
      ? []
      : store.alertEntries.list({
          ...(q.alertKinds ? { kinds: q.alertKinds } : {}),
          ...(q.severities ? { severities: q.severities } : {}),
          ...(before ? { before } : {}),
          limit: limit + 1,
        });
  const merged: ActivityItem[] = [...transitions, ...alerts].sort(newestFirst);
  const items = merged.slice(0, limit);
  const last = items[items.length - 1];
  return merged.length > limit && last ? { items, next: cursorOf(last) } : { items };
}
