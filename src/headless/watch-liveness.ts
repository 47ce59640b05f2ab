/**
 * When each watch and feed goes live. A new watcher first takes a silent baseline of its history
 * (changes in that time are not alerted); for a busy address under the default budget that can take
 * most of a minute. The watcher follows the core's `watchlist-changed` events (sent when a baseline
 * finishes, too), so it can say in its log when each one is live, say `ready.` only when all are, and
 * export the state to Prometheus.
 */
import { Gauge } from 'prom-client';
import { METRIC_PREFIX, MAX_WATCH_LABELS, LabelCap, type MonitorCore } from '../core';
import type { SavedFeed, WatchedAddress } from '../shared/contract';
import type { Clock } from '../shared/clock';

interface WatchLive {
  kind: 'address' | 'feed';
  /** The address, or the feed's ID. */
  id: string;
  /** The label (address) or name (feed); empty for an unlabelled address. */
  label: string;
  live: boolean;
  /** Its first read stopped at its page cap: history is followed back to here only (ms; null: not cut). */
  historyCutAt: number | null;
}

export interface LiveEvent {
  watch: WatchLive;
  /** Milliseconds from when this process first saw it baselining to when it went live. */
  baselineMs: number;
}

export interface WatchLiveness {
  /** Every watch and feed as last read. */
  states(): readonly WatchLive[];
  /** Resolves the first time every watch and feed is live (at once when none is baselining). */
  readonly allLive: Promise<void>;
  /** Reads the watchlist again now (start-up, after the config's watchlist was applied). */
  refresh(): Promise<void>;
  close(): void;
}

/** How a watch is named in a log line: its label with the address, or the feed's name. */
export const describeWatch = (w: WatchLive): string => (w.kind === 'feed' ? `feed "${w.label}"` : w.label ? `${w.label} (${w.id})` : w.id);

export function followLiveness(core: Pick<MonitorCore, 'invoke' | 'onEvent' | 'metrics'>, clock: Clock, onLive: (e: LiveEvent) => void): WatchLiveness {
  const state = new Map<string, WatchLive>();
  /** When each baselining watcher was first seen so (by this process). */
  const since = new Map<string, number>();
  let resolveAll!: () => void;
  const allLive = new Promise<void>((r) => (resolveAll = r));
  let closed = false;

  async function readOnce(): Promise<void> {
    const [watches, feeds] = await Promise.all([core.invoke('listWatches', undefined), core.invoke('listFeeds', undefined)]);
    // A failed read (the core closing) changes nothing; the next event reads again.
    if (closed || !watches.ok || !feeds.ok) return;
    const next = new Map<string, WatchLive>();
    for (const w of watches.value as WatchedAddress[])
      next.set(`a:${w.address}`, { kind: 'address', id: w.address, label: w.label, live: !w.baselinePending, historyCutAt: w.historyCutAt });
    for (const f of feeds.value as SavedFeed[])
      next.set(`f:${f.id}`, { kind: 'feed', id: f.id, label: f.name, live: !f.baselinePending, historyCutAt: f.historyCutAt });
    const now = clock.now();
    for (const [key, w] of next) {
      if (!w.live) since.set(key, since.get(key) ?? now);
      else if (since.has(key)) onLive({ watch: w, baselineMs: now - (since.get(key) ?? now) });
      if (w.live) since.delete(key);
    }
    for (const key of since.keys()) if (!next.has(key)) since.delete(key);
    state.clear();
    for (const [k, v] of next) state.set(k, v);
    if (since.size === 0) resolveAll();
  }

  // One read at a time; events arriving meanwhile make exactly one more.
  let reading: Promise<void> | null = null;
  let again = false;
  const refresh = (): Promise<void> => {
    if (reading) {
      again = true;
      return reading;
    }
    reading = (async () => {
      do {
        again = false;
        await readOnce();
      } while (again && !closed);
    })().finally(() => (reading = null));
    return reading;
  };
  const off = core.onEvent((e) => {
    if (e.type === 'watchlist-changed') void refresh();
  });

  if (core.metrics) {
    const labels = new LabelCap(MAX_WATCH_LABELS);
    const registers = [core.metrics.registry];
    new Gauge({
      name: `${METRIC_PREFIX}watch_live`,
      help: 'Whether a watch is live (1) or still taking its silent baseline (0: its changes are not alerted yet), by watch label (address label or feed name; "unlabelled" when none). With several watches under one label, 0 while any of them is baselining.',
      labelNames: ['watch'],
      registers,
      collect() {
        this.reset();
        const byLabel = new Map<string, number>();
        for (const w of state.values()) {
          const label = labels.of(w.label || 'unlabelled');
          byLabel.set(label, Math.min(byLabel.get(label) ?? 1, w.live ? 1 : 0));
        }
        for (const [watch, v] of byLabel) this.set({ watch }, v);
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}watchers_baselining`,
      help: 'Watched addresses and feeds still taking their silent baseline (their changes are not alerted yet).',
      registers,
      collect() {
        this.set([...state.values()].filter((w) => !w.live).length);
      },
    });
  }

  return {
    states: () => [...state.values()],
    allLive,
    refresh,
    close() {
      closed = true;
      off();
    },
  };
}
