import { defineStore } from 'pinia';
import { ref } from 'vue';
import { watchedAddressesOf, type NotificationPayload, type Transition, type TransitionKind, type TransitionsEvent } from '../../../shared/contract';
import { TRANSITION_KINDS } from '../../../shared/schemas';
import type { ErrorInfo } from '../../../shared/errors';
import { monitor, useMonitorEvents } from '../client';
import { latestRead } from '../logic/latest-read';
import { RecentIds } from '../logic/recent-ids';

const ACTIVITY_PAGE = 50;
/** Live entries kept in memory; older ones come back through "load older". */
const MAX_LIVE = 1000;
/**
 * Transition IDs remembered as toasted: the same window as the live list. A core notification follows
 * its batch within one outbox drain, so it names IDs of the latest batches, far inside this window.
 */
export const TOASTED_KEPT = MAX_LIVE;

export type Toast = { key: string; kind: 'transition'; transition: Transition } | { key: string; kind: 'notification'; notification: NotificationPayload };

/** The Activity room: the transition log with a kinds filter, live updates, and toasts to show. */
export const useActivityStore = defineStore('activity', () => {
  const items = ref<Transition[]>([]);
  const kinds = ref<TransitionKind[]>([...TRANSITION_KINDS]);
  /** Only the changes of this watched address (a burst toast opens Activity this way); null = all. */
  const address = ref<string | null>(null);
  const nextBeforeId = ref<number | undefined>(undefined);
  const loading = ref(false);
  const loaded = ref(false);
  const error = ref<ErrorInfo | null>(null);
  /** Arrivals not yet shown as toasts; the toaster component drains it. */
  const pendingToasts = ref<Toast[]>([]);
  const unseen = ref(0);
  /** Transition IDs already toasted (directly or inside a core notification): one toast per change. */
  const toasted = new RecentIds(TOASTED_KEPT);
  const reads = latestRead(loading, error);

  const query = (beforeId?: number) => ({
    ...(kinds.value.length < TRANSITION_KINDS.length ? { kinds: [...kinds.value] } : {}),
    ...(address.value ? { address: address.value } : {}),
    ...(beforeId ? { beforeId } : {}),
    limit: ACTIVITY_PAGE,
  });

  function load(): Promise<void> {
    return reads.run(
      () => monitor().listTransitions(query()),
      (page) => {
        items.value = page.items;
        nextBeforeId.value = page.nextBeforeId;
        loaded.value = true;
      },
    );
  }

  function loadOlder(): Promise<void> {
    if (nextBeforeId.value === undefined || loading.value) return Promise.resolve();
    return reads.run(
      () => monitor().listTransitions(query(nextBeforeId.value)),
      (page) => {
        const have = new Set(items.value.map((t) => t.id));
        items.value = [...items.value, ...page.items.filter((t) => !have.has(t.id))];
        nextBeforeId.value = page.nextBeforeId;
      },
    );
  }

  function setKinds(next: TransitionKind[]): Promise<void> {
    kinds.value = next;
    // No kind chosen means nothing to show; don't ask the core for "all" by accident.
    if (next.length === 0) {
      reads.drop();
      items.value = [];
      nextBeforeId.value = undefined;
      loading.value = false;
      return Promise.resolve();
    }
    return load();
  }

  function showAddress(a: string | null): Promise<void> {
    address.value = a;
    return load();
  }

  function applyBatch(e: TransitionsEvent): void {
    // The batch is oldest first; the list is newest first. One array write for the whole batch.
    const have = new Set(items.value.map((x) => x.id));
    const fresh = e.transitions.filter(
      (t) => !have.has(t.id) && kinds.value.includes(t.kind) && (!address.value || watchedAddressesOf(t).includes(address.value)),
    );
    if (fresh.length) items.value = [...fresh.reverse(), ...items.value].slice(0, MAX_LIVE);
    unseen.value += e.transitions.length;
    const ids = new Set<number>();
    for (const t of e.transitions) {
      // A change the watch's "Notify on" choices leave out is logged, not toasted.
      if (!toasted.has(t.id) && !ids.has(t.id) && t.notify !== false) pendingToasts.value.push({ key: `t${t.id}`, kind: 'transition', transition: t });
      ids.add(t.id);
    }
    toasted.addAll(ids);
  }

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

  useMonitorEvents({ transitions: applyBatch, notification: (e) => applyNotification(e.notification) });

  function takeToasts(): Toast[] {
    const out = pendingToasts.value;
    pendingToasts.value = [];
    return out;
  }

  return {
    items,
    kinds,
    address,
    showAddress,
    nextBeforeId,
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
    takeToasts,
    markSeen: () => (unseen.value = 0),
  };
});
