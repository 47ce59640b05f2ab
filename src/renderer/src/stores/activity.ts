import { defineStore } from 'pinia';
import { ref } from 'vue';
import {
  watchedAddressesOf,
  type ActivityCursor,
  type ActivityItem,
  type AlertEntry,
  type NotificationPayload,
  type TransitionKind,
  type TransitionsEvent,
} from '../../../shared/contract';
import { TRANSITION_KINDS } from '../../../shared/schemas';
import { EPISODE_KINDS, SEVERITIES, transitionSeverity, type EpisodeKind, type Severity } from '../../../shared/vocabulary';
import type { ErrorInfo } from '../../../shared/errors';
import { monitor, useMonitorEvents } from '../client';
import { latestRead } from '../logic/latest-read';
import { RecentIds } from '../logic/recent-ids';
import type { Toast } from '../logic/toast-plan';

const ACTIVITY_PAGE = 50;
/** Live entries kept in memory; older ones come back through "load older". */
const MAX_LIVE = 1000;
/**
 * Transition IDs remembered as toasted: the same window as the live list. A core notification follows
 * its batch within one outbox drain, so it names IDs of the latest batches, far inside this window.
 */
export const TOASTED_KEPT = MAX_LIVE;

/** An item's key in the list: transitions and alert entries count their IDs apart. */
export const activityKey = (i: ActivityItem): string => `${i.kind === 'alert' ? 'a' : 't'}${i.id}`;

/**
 * The Activity room: one timeline of the watched messages' transitions and every alert's fire and
 * resolve, filtered by message kind, alert kind and severity, with live updates, and toasts to show.
 */
export const useActivityStore = defineStore('activity', () => {
  const items = ref<ActivityItem[]>([]);
  const kinds = ref<TransitionKind[]>([...TRANSITION_KINDS]);
  const alertKinds = ref<EpisodeKind[]>([...EPISODE_KINDS]);
  const severities = ref<Severity[]>([...SEVERITIES]);
  /** Only the changes of this watched address (a burst toast opens Activity this way; no alerts); null = all. */
  const address = ref<string | null>(null);
  const next = ref<ActivityCursor | undefined>(undefined);
  const loading = ref(false);
  const loaded = ref(false);
  const error = ref<ErrorInfo | null>(null);
  /** Arrivals not yet shown as toasts; the toaster component drains it. */
  const pendingToasts = ref<Toast[]>([]);
  const unseen = ref(0);
  /** Transition IDs already toasted (directly or inside a core notification): one toast per change. */
  const toasted = new RecentIds(TOASTED_KEPT);
  const reads = latestRead(loading, error);

  // Every message kind checked asks for all of them, a reorg's undo too; an empty group asks for none of it.
  const allKinds = () => kinds.value.length === TRANSITION_KINDS.length;
  const query = (before?: ActivityCursor) => ({
    ...(allKinds() ? {} : { kinds: [...kinds.value] }),
    ...(alertKinds.value.length < EPISODE_KINDS.length ? { alertKinds: [...alertKinds.value] } : {}),
    ...(severities.value.length < SEVERITIES.length ? { severities: [...severities.value] } : {}),
    ...(address.value ? { address: address.value } : {}),
    ...(before ? { before } : {}),
    limit: ACTIVITY_PAGE,
  });
  /** No kind or no severity chosen means nothing to show; don't ask the core for "all" by accident. */
  const nothingChosen = () => severities.value.length === 0 || (kinds.value.length === 0 && (alertKinds.value.length === 0 || address.value !== null));

  /** Whether a live arrival belongs in the list as filtered. */
  function shows(i: ActivityItem): boolean {
    if (i.kind === 'alert') return !address.value && alertKinds.value.includes(i.episodeKind) && severities.value.includes(i.severity);
    return (
      (allKinds() || kinds.value.includes(i.kind)) &&
      severities.value.includes(transitionSeverity(i.kind)) &&
      (!address.value || watchedAddressesOf(i).includes(address.value))
    );
  }

  function load(): Promise<void> {
    if (nothingChosen()) {
      reads.drop();
      items.value = [];
      next.value = undefined;
      loading.value = false;
      loaded.value = true;
      return Promise.resolve();
    }
    return reads.run(
      () => monitor().listActivity(query()),
      (page) => {
        items.value = page.items;
        next.value = page.next;
        loaded.value = true;
      },
    );
  }

  function loadOlder(): Promise<void> {
    if (next.value === undefined || loading.value) return Promise.resolve();
    return reads.run(
      () => monitor().listActivity(query(next.value)),
      (page) => {
        const have = new Set(items.value.map(activityKey));
        items.value = [...items.value, ...page.items.filter((i) => !have.has(activityKey(i)))];
        next.value = page.next;
      },
    );
  }

  /** Changes one filter group and reads the first page again. */
  function setFilter(set: () => void): Promise<void> {
    set();
    return load();
  }
  const setKinds = (v: TransitionKind[]) => setFilter(() => (kinds.value = v));
  const setAlertKinds = (v: EpisodeKind[]) => setFilter(() => (alertKinds.value = v));
  const setSeverities = (v: Severity[]) => setFilter(() => (severities.value = v));

  function showAddress(a: string | null): Promise<void> {
    address.value = a;
    return load();
  }

  /** Live arrivals, oldest first: those the filters show go on top, one array write. */
  function prepend(arrivals: readonly ActivityItem[]): void {
    const have = new Set(items.value.map(activityKey));
    const fresh = arrivals.filter((i) => !have.has(activityKey(i)) && shows(i));
    if (fresh.length) items.value = [...fresh.reverse(), ...items.value].slice(0, MAX_LIVE);
    unseen.value += arrivals.length;
  }

  function applyBatch(e: TransitionsEvent): void {
    prepend(e.transitions);
    const ids = new Set<number>();
    for (const t of e.transitions) {
      // A change the watch's "Notify on" choices leave out is logged, not toasted.
      if (!toasted.has(t.id) && !ids.has(t.id) && t.notify !== false) pendingToasts.value.push({ key: `t${t.id}`, kind: 'transition', transition: t });
      ids.add(t.id);
    }
    toasted.addAll(ids);
  }

  /** Alerts fired or resolved: listed at once (their toast is the core's notification, when announced). */
  const applyAlerts = (alerts: AlertEntry[]) => prepend(alerts);

  function applyNotification(n: NotificationPayload): void {
    const ids = n.transitionIds;
    // The core's notification for changes already toasted adds nothing in-app (the shell still shows it).
    // A routine one for changes this page never saw arrive is a backlog from before it opened: Activity
    // lists them; a stale summary toast would not help (warnings and recoveries still show).
    const routine = (n.severity ?? 'info') === 'info';
    const fresh = ids.length === 0 || (!routine && !ids.every((id) => toasted.has(id)));
    if (fresh) pendingToasts.value.push({ key: `n${n.id}`, kind: 'notification', notification: n });
    toasted.addAll(ids);
  }

  useMonitorEvents({ transitions: applyBatch, alerts: (e) => applyAlerts(e.alerts), notification: (e) => applyNotification(e.notification) });

  function takeToasts(): Toast[] {
    const out = pendingToasts.value;
    pendingToasts.value = [];
    return out;
  }

  return {
    items,
    kinds,
    alertKinds,
    severities,
    address,
    showAddress,
    next,
    loading,
    loaded,
    error,
    pendingToasts,
    unseen,
    load,
    /** The log's first page again (changes missed or another source's): the badge counts only live arrivals. */
    resync: load,
    loadOlder,
    setKinds,
    setAlertKinds,
    setSeverities,
    takeToasts,
    markSeen: () => (unseen.value = 0),
  };
});
