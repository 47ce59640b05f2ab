import { TRACKING_LIMIT_HOURS, type Settings, type Transition, type TransitionKind } from '../../shared/contract';
import type { Clock } from '../../shared/clock';
import { effectiveStatus, latestTimestamp, messageTimestamp, rawRecord, transactionTimes, type TeleporterMessage } from '../../shared/messages';
import type { Network } from '../../shared/validators';
import type { MessageRow, MessageState, Store, TrackedMessage } from '../store';
import { searchTextOf } from '../store';
import type { WatcherInfo } from '../store/watch-store';
import { isRouteKey, watcherRef } from '../store/watcher-key';
import { chainLabel, ownChainsOf } from '../../shared/chains';
import { sourceKeyOf, type SourceKey } from '../../shared/sources';
import { undoneText } from '../../shared/transitions';
import { notificationText } from './notification-text';
import { notifies } from './notify-choice';
import { RETRY_FOLLOW_MS } from '../../shared/policy';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../shared/time';
import { awaitsRetry } from './retry-follow';
import type { WatcherIndex } from './watcher-index';

/** A delivered message whose receipt has not come back within this long of its delivery stops being tracked (and says so). */
export const RECEIPT_TRACKING_MS = TRACKING_LIMIT_HOURS.receipt_missing * HOUR_MS;
/** A message still pending this long after it was sent stops being tracked (and says so); `stuck` fired long before. */
export const PENDING_TRACKING_MS = TRACKING_LIMIT_HOURS.pending_too_long * HOUR_MS;

export interface ObserveOptions {
  /** Watchers whose silent baseline this observation is part of. */
  baselineFor?: ReadonlySet<string>;
  /**
   * A baseline's read (history): a message it sees FIRST whose source timestamp (s) is below this (what
   * discovery has already covered) is history for every watcher, not only for `baselineFor`: had it
   * been news for a live watcher, discovery would have shown it first. Except a message sent after that
   * watcher was added: the indexer lists records late, so discovery may not have seen it yet.
   */
  historyBelowTs?: number;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * Turns observations of messages into transitions, exactly once. State only moves forward
 * (pending → other status; receiptDelivered false → true), so a repeated or stale page is a no-op,
 * and the UNIQUE (message, kind, round) constraint of the log guards the same across restarts. The
 * one exception: from your own nodes a move back is a reorg the service followed (its store is the
 * chains' state, never an older page), so it is a fact: `delivery_undone` / `receipt_undone`, and
 * the next delivery or receipt fires again, once (a new round). A message
 * only produces transitions when at least one of its watchers is live (baseline taken, not in the
 * middle of one, and the message is not older than that watcher's history floor).
 */
export class TransitionEngine {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly index: WatcherIndex,
    private readonly settings: () => Settings,
    /** Where a reorg's undo is said (the core's log). */
    private readonly say: (line: string) => void = () => undefined,
  ) {}

  /** The source the running poll cycle reads (null: none pinned). */
  private cycleSource: SourceKey | null = null;

  /**
   * Pins the source a poll cycle reads: pages it reads after the user switched to another source are
   * dropped, not stored as the new source's (the next cycle reads the new one). `null` unpins.
   */
  readingFrom(source: SourceKey | null): void {
    this.cycleSource = source;
  }

  /** Records a page of observations in one transaction; returns the transitions it logged. */
  observe(messages: readonly TeleporterMessage[], network: Network, opts: ObserveOptions = {}): Transition[] {
    const out: Transition[] = [];
    // Settings are read once per page, not once per message (each read parses and validates them).
    const settings = this.settings();
    if (this.cycleSource !== null && this.cycleSource !== sourceKeyOf(settings.dataSource)) return out;
    this.store.transaction(() => {
      for (const m of messages) this.observeOne(m, network, opts, out, settings);
    });
    return out;
  }

  /**
   * Fires `stuck` for tracked pending messages older than the threshold, and ends the tracking of
   * messages past a tracking limit (receipt missing 24 h after the delivery, pending 7 days), marking
   * each with why: nothing is tracked forever, nothing stops being tracked silently. `stuck` is not
   * judged for a message `held` names (its source or chain not read now, or not since they came back):
   * it is judged at a later sweep, from a read that saw it.
   */
  sweep(held: (t: TrackedMessage) => boolean = () => false): Transition[] {
    const now = this.clock.now();
    const settings = this.settings();
    const threshold = settings.stuckThresholdMinutes * MINUTE_MS;
    const out: Transition[] = [];
    this.store.transaction(() => {
      // Only rows past one of the two limits are read (the checks below stay the authority).
      for (const t of this.store.messages.sweepable(now - threshold, now - RECEIPT_TRACKING_MS, now - PENDING_TRACKING_MS, now - RETRY_FOLLOW_MS)) {
        const since = t.pendingSince ?? t.lastSeenAt;
        if (t.status === 'pending' && !t.stuckFired && now - since >= threshold && !held(t)) {
          this.store.messages.markStuck(t.messageId);
          const m = this.store.messages.get(t.messageId);
          const watchers = m ? announcing(this.index.watchersOf(m.message, t.network)) : [];
          // A message linked to a watcher (its baseline saw it open, or a read since) is followed, baseline finished or not.
          const linked = new Set(this.store.messageWatchers.of(t.messageId).map((l) => l.watcher));
          const live = watchers.filter((w) => w.baselineDone || linked.has(w.key));
          if (m && live.length) this.log(out, m.message, t.network, 'stuck', 'pending', 'pending', watchers, live, since, settings);
        }
        if (t.status === 'pending' && now - (t.pendingSince ?? t.firstSeenAt) >= PENDING_TRACKING_MS) {
          this.store.messages.endTracking(t.messageId, 'pending_too_long', now);
        } else if (
          t.status !== 'pending' &&
          !t.receiptDelivered &&
          now - (t.destinationTs !== null ? t.destinationTs * 1000 : t.firstSeenAt) >= RECEIPT_TRACKING_MS
        ) {
          this.store.messages.endTracking(t.messageId, 'receipt_missing', now);
        } else if (t.status !== 'pending' && t.receiptDelivered) {
          // Its failed execution no longer counts for the alert: settled, as if its retry had been read.
          this.store.messages.settle(t.messageId);
        }
      }
    });
    return out;
  }

  private observeOne(m: TeleporterMessage, network: Network, opts: ObserveOptions, out: Transition[], settings: Settings): void {
    const now = this.clock.now();
    const watchers = this.index.watchersOf(m, network);
    const prev = this.store.messages.state(m.messageId);
    // Messages of nobody's interest are not kept (the firehose sees every message on the network).
    if (!watchers.length && !prev) return;
    // Nor a settled one past the retention, which the pruner let go of or would at once: a read paging
    // through old history (the re-check of an older tracked message) neither keeps it nor announces it.
    if (!prev && pastRetention(m, now, settings)) return;
    const raw = rawRecord(m);
    const status = effectiveStatus(m);
    const rd = raw.receiptDelivered === true;
    const ts = messageTimestamp(m) ?? null;
    const links = prev ? this.store.messageWatchers.of(m.messageId) : [];
    const prevWatched = links.length > 0;
    const history = (!prev || !prevWatched) && opts.historyBelowTs !== undefined && (ts === null || ts < opts.historyBelowTs);
    // A watcher the message was already linked to follows its changes: they happen after that first
    // sighting, which came after the watcher was added (its baseline's, or a late record below its floor).
    const linked = new Set(links.map((l) => l.watcher));
    const live = watchers.filter((w) => linked.has(w.key) || (isLive(w, opts, ts) && (!history || (ts !== null && ts * 1000 >= w.since))));
    for (const w of watchers) this.store.messageWatchers.add(m.messageId, w.key, now, !live.includes(w));
    // From here on only watchers that make Activity count: a route keeps and tracks its messages, silently.
    const shown = announcing(watchers);
    const liveShown = announcing(live);
    const threshold = settings.stuckThresholdMinutes * MINUTE_MS;

    if (!prev || !prevWatched) {
      const pendingSince = status === 'pending' ? (ts !== null ? ts * 1000 : now) : null;
      const row = this.row(m, network, now, followOf(watchers), pendingSince, false, settings);
      // History found silently that was already over the threshold when its watches began does not fire
      // `stuck` later; one that crossed it since (a baseline that met it late) fires at the next sweep.
      row.stuckFired = !liveShown.length && pendingSince !== null && now - pendingSince >= threshold && shown.every((w) => pendingSince + threshold < w.since);
      if (prev) this.store.messages.update(prev.rowid, row);
      else this.store.messages.insert(row);
      // Sent before a watcher was added but delivered since (its destination time says so): that delivery,
      // and a receipt already back after it, happened after the add, so they are news for it.
      const deliveredSince = status === 'pending' || row.destinationTs === null ? [] : shown.filter((w) => sentAfterAdded(w, row.destinationTs));
      const movedLive = [...liveShown, ...deliveredSince.filter((w) => !liveShown.includes(w))];
      if (liveShown.length) this.log(out, m, network, 'new', null, status, shown, liveShown, pendingSince, settings);
      if (!movedLive.length) return;
      if (status !== 'pending') this.log(out, m, network, 'left_pending', null, status, shown, movedLive, pendingSince, settings);
      if (rd) this.log(out, m, network, 'receipt_delivered', status, status, shown, movedLive, pendingSince, settings);
      return;
    }

    const leftPending = prev.status === 'pending' && status !== 'pending';
    const backwards = (prev.status !== 'pending' && status === 'pending') || (prev.receiptDelivered && !rd);
    if (backwards) {
      if (rolledBack(settings, raw, prev.status !== 'pending' && status === 'pending', prev.receiptDelivered && !rd)) {
        return this.undo(m, network, prev, watchers, liveShown, now, settings, out);
      }
      // A stale page (an older copy of the record): keep what we know (and whose it is), note that we saw it.
      this.store.messages.touch(m.messageId, now, prev.source);
      return;
    }
    const receipt = !prev.receiptDelivered && rd;
    const pendingSince = status === 'pending' ? prev.pendingSince : null;
    const follow = followOf(watchers);
    // Most observations repeat what is stored: only note the sighting then (no row or index rewrite).
    const retry = awaitsRetry(status, raw, transactionTimes(m).destinationTs, now);
    if (trackedState(status, rd, follow, retry) === prev.tracked && this.store.messages.sameRaw(prev.rowid, JSON.stringify(raw)))
      this.store.messages.touch(m.messageId, now, sourceKeyOf(settings.dataSource));
    else this.store.messages.update(prev.rowid, this.row(m, network, now, follow, pendingSince, prev.stuckFired, settings));
    if (!liveShown.length) return;
    if (leftPending) this.log(out, m, network, 'left_pending', prev.status, status, shown, liveShown, prev.pendingSince, settings);
    if (receipt) this.log(out, m, network, 'receipt_delivered', status, status, shown, liveShown, prev.pendingSince, settings);
  }

  /** A reorg took a delivery and/or receipt back: stored as the chains now say, tracked (and `stuck`-able) again, said in the log and Activity. */
  private undo(
    m: TeleporterMessage,
    network: Network,
    prev: MessageState,
    watchers: WatcherInfo[],
    liveShown: WatcherInfo[],
    now: number,
    settings: Settings,
    out: Transition[],
  ): void {
    const raw = rawRecord(m);
    const status = effectiveStatus(m);
    const ts = messageTimestamp(m) ?? null;
    const deliveryUndone = prev.status !== 'pending' && status === 'pending';
    const pendingSince = status === 'pending' ? (prev.pendingSince ?? (ts !== null ? ts * 1000 : now)) : prev.pendingSince;
    this.store.messages.update(prev.rowid, this.row(m, network, now, followOf(watchers), pendingSince, deliveryUndone ? false : prev.stuckFired, settings));
    const own = ownChainsOf(settings.dataSource);
    const undone: ['delivery_undone' | 'receipt_undone', string][] = [];
    if (deliveryUndone) undone.push(['delivery_undone', str(raw.destinationBlockchainId)]);
    if (prev.receiptDelivered && raw.receiptDelivered !== true) undone.push(['receipt_undone', str(raw.sourceBlockchainId)]);
    const shown = announcing(watchers);
    for (const [kind, chain] of undone) {
      this.say(`message ${m.messageId}: ${undoneText(kind, chainLabel(chain, own))}: it is followed again.`);
      if (liveShown.length) this.log(out, m, network, kind, prev.status, status, shown, liveShown, pendingSince, settings);
    }
  }

  private row(
    m: TeleporterMessage,
    network: Network,
    now: number,
    follow: Follow,
    pendingSince: number | null,
    stuckFired: boolean,
    settings: Settings,
  ): MessageRow {
    const raw = rawRecord(m);
    const status = effectiveStatus(m);
    const rd = raw.receiptDelivered === true;
    return {
      messageId: m.messageId,
      network,
      status,
      receiptDelivered: rd,
      from: str(raw.from),
      to: str(raw.to),
      sourceChain: str(raw.sourceBlockchainId),
      destinationChain: str(raw.destinationBlockchainId),
      ...transactionTimes(m),
      raw: JSON.stringify(raw),
      searchText: searchTextOf(m, raw),
      seenAt: now,
      tracked: trackedState(status, rd, follow, awaitsRetry(status, raw, transactionTimes(m).destinationTs, now)),
      pendingSince,
      stuckFired,
      source: sourceKeyOf(settings.dataSource),
    };
  }

  private log(
    out: Transition[],
    m: TeleporterMessage,
    network: Network,
    kind: TransitionKind,
    fromStatus: string | null,
    toStatus: string,
    watchers: WatcherInfo[],
    live: WatcherInfo[],
    pendingSince: number | null,
    s: Settings,
  ): void {
    const raw = rawRecord(m);
    const now = this.clock.now();
    const t: Omit<Transition, 'id'> = {
      messageId: m.messageId,
      kind,
      fromStatus,
      toStatus,
      at: now,
      network,
      sourceBlockchainId: str(raw.sourceBlockchainId),
      destinationBlockchainId: str(raw.destinationBlockchainId),
      watchers: watchers.map((w) => watcherRef(w.key)),
      source: sourceKeyOf(s.dataSource),
    };
    const id = this.store.transitions.add(t);
    if (id === null) return;
    const notify = notifies(s, live, kind);
    out.push({ id, ...t, notify });
    if (notify) {
      const text = notificationText(t, now, pendingSince, ownChainsOf(s.dataSource));
      this.store.outbox.add({ transitionId: id, messageId: m.messageId, title: text.title, body: text.body, createdAt: now });
    }
  }
}

/**
 * The watchers whose messages make transitions (Activity, notifications): addresses and feeds. A watched
 * route's messages are kept and tracked for its figures and episodes, but are not news message by message.
 */
const announcing = (watchers: readonly WatcherInfo[]): WatcherInfo[] => watchers.filter((w) => !isRouteKey(w.key));

/**
 * A move back is a reorg's rollback (a fact) only from your own nodes, and only on a chain they read:
 * the destination for a delivery, the source for a receipt. Anything else (the Data API, a record kept
 * from another source whose chain is not configured) is an older copy: ignored.
 */
function rolledBack(s: Settings, raw: Record<string, unknown>, delivery: boolean, receipt: boolean): boolean {
  if (s.dataSource.kind !== 'ownNodes') return false;
  const chains = s.dataSource.ownNodes.chains;
  const reads = (id: unknown) => chains.some((c) => c.blockchainId === id);
  return (!delivery || reads(raw.destinationBlockchainId)) && (!receipt || reads(raw.sourceBlockchainId));
}

/**
 * How far a message is followed: until its receipt is back, a route's message too (its relayer's rewards
 * are paid or owed by the receipt: docs/relayer-fuel.md; where the firehose is read, the message that
 * carries the receipt back hints at it, the fallback re-check is every quarter of its age, 5 min … 1 h).
 */
type Follow = 'none' | 'receipt';
const followOf = (watchers: readonly WatcherInfo[]): Follow => (watchers.length === 0 ? 'none' : 'receipt');
/** Tracked while someone watches it and it is pending, still awaiting its receipt, or awaiting the retry of its failed execution. */
const trackedState = (status: string, rd: boolean, follow: Follow, retry: boolean): boolean => follow === 'receipt' && (status === 'pending' || !rd || retry);

/** Settled, and its latest transaction older than the retention (store/pruning.ts goes by the same time). */
function pastRetention(m: TeleporterMessage, now: number, s: Settings): boolean {
  const latest = latestTimestamp(m);
  return effectiveStatus(m) !== 'pending' && latest !== undefined && latest * 1000 < now - s.retentionDays * DAY_MS;
}

/**
 * Sent in the second the watcher was added or later: news for it, whichever read meets it first (its own
 * baseline's too). A source time has whole seconds: one in the same second may be either side, and
 * taking it as news loses nothing (at worst one `new` for a message sent within the second before).
 */
const sentAfterAdded = (w: WatcherInfo, ts: number | null): boolean => ts !== null && ts >= Math.floor(w.since / 1000);

function isLive(w: WatcherInfo, opts: ObserveOptions, ts: number | null): boolean {
  if (sentAfterAdded(w, ts)) return true;
  if (!w.baselineDone || opts.baselineFor?.has(w.key)) return false;
  return w.baselineFloor === null || ts === null || ts >= w.baselineFloor;
}

export type { MessageState };
