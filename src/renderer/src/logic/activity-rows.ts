import type { ActivityItem, AlertEntry, Transition } from '../../../shared/contract';
import { chainLabel, routeLabel, type OwnChain } from '../../../shared/chains';
import { shortHex } from '../../../shared/format';
import { undoneText } from '../../../shared/transitions';
import { EPISODE_WORDS, TRANSITION_WORDS, changeWords } from '../../../shared/vocabulary';

/** One Activity row as the table shows it: the words are worked out once, so sorting and searching read plain strings. */
export interface ActivityRow {
  key: string;
  /** Its place in the store's list (newest first): keys j/k and the table's default order. */
  index: number;
  item: ActivityItem;
  /** The event in the vocabulary's words (Activity's short label). */
  kindWord: string;
  /** The route, or for an alert without chains its subject (a relayer). */
  route: string;
  /** What changed ("pending → delivered") or the alert's title. */
  what: string;
  at: number;
  /** Every word a search may match, lower case. */
  haystack: string;
}

export type ActivitySortKey = 'time' | 'kind' | 'route';
export interface ActivitySort {
  key: ActivitySortKey;
  order: 'ascend' | 'descend';
}
/** The core's order: newest first (an alert above a transition of the same moment). */
export const DEFAULT_SORT: ActivitySort = { key: 'time', order: 'descend' };

const chainName = (id: string, own: readonly OwnChain[]) => chainLabel(id, own);

/** A reorg's undo names the chain it happened on: the destination for a delivery, the source for a receipt. */
function changeText(t: Transition, own: readonly OwnChain[]): string {
  if (t.kind === 'delivery_undone') return undoneText(t.kind, chainName(t.destinationBlockchainId, own));
  if (t.kind === 'receipt_undone') return undoneText(t.kind, chainName(t.sourceBlockchainId, own));
  return changeWords(t);
}

/** Who a transition is watched through, short. */
export const watchersText = (t: Transition) => t.watchers.map((w) => (w.kind === 'feed' ? `feed ${w.feedId}` : shortHex(w.address))).join(', ');

function alertRoute(e: AlertEntry, own: readonly OwnChain[]): string {
  return e.sourceChain && e.destinationChain ? routeLabel(e.sourceChain, e.destinationChain, own) : e.subject;
}

export function toActivityRow(item: ActivityItem, index: number, own: readonly OwnChain[]): ActivityRow {
  if (item.kind === 'alert') {
    const route = alertRoute(item, own);
    const kindWord = EPISODE_WORDS[item.episodeKind].label;
    return {
      key: `a${item.id}`,
      index,
      item,
      kindWord,
      route,
      what: item.title,
      at: item.at,
      haystack: [kindWord, route, item.title, item.body].join(' ').toLowerCase(),
    };
  }
  const route = routeLabel(item.sourceBlockchainId, item.destinationBlockchainId, own);
  const kindWord = TRANSITION_WORDS[item.kind].label;
  const what = changeText(item, own);
  const watchers = item.watchers.map((w) => (w.kind === 'feed' ? `feed ${w.feedId}` : w.address));
  return {
    key: `t${item.id}`,
    index,
    item,
    kindWord,
    route,
    what,
    at: item.at,
    haystack: [kindWord, route, what, item.messageId, ...watchers].join(' ').toLowerCase(),
  };
}

/** Rows whose words hold every term of the search (any order, any case); an empty search keeps them all. */
export function searchRows(rows: readonly ActivityRow[], text: string): ActivityRow[] {
  const terms = text.toLowerCase().split(/\s+/).filter(Boolean);
  return terms.length ? rows.filter((r) => terms.every((t) => r.haystack.includes(t))) : [...rows];
}

/** Sorted by one column; ties keep the core's order (newest first), so a sort by kind reads newest first within a kind. */
export function sortRows(rows: readonly ActivityRow[], sort: ActivitySort): ActivityRow[] {
  const dir = sort.order === 'ascend' ? 1 : -1;
  const cmp = (a: ActivityRow, b: ActivityRow): number => {
    // Same moment: the core's order newest first, reversed when oldest first.
    if (sort.key === 'time') return a.at === b.at ? (a.index - b.index) * -dir : (a.at - b.at) * dir;
    const x = sort.key === 'kind' ? a.kindWord : a.route;
    const y = sort.key === 'kind' ? b.kindWord : b.route;
    return x === y ? a.index - b.index : x.localeCompare(y) * dir;
  };
  return [...rows].sort(cmp);
}
