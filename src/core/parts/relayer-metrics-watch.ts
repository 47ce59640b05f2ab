/**
 * The relayer's own view beside the chains' (issue 45; docs/relayer-metrics.md): every
 * RELAYER_METRICS_EVERY_MINUTES, after a poll cycle, each watched relayer with a metrics URL is read
 * (timeout and size cap: relayers/relayer-metrics-read.ts); its counters' growth over the window is set
 * beside the deliveries the cache shows for it, and two disagreements fire and resolve as episodes
 * through the alert timeline: it claims deliveries the chains do not show, and failures with one reason
 * climbing. A read that fails is a state ("relayer metrics not read: …"), never news about the
 * relayer: its episodes are held until it is read again.
 */
import { ownChainsOf } from '../../shared/chains';
import type { MonitorEvent, Settings } from '../../shared/contract';
import { RELAYER_METRICS_EVERY_MINUTES, RELAYER_METRICS_MAX_BYTES, RELAYER_METRICS_TIMEOUT_MS, RELAYER_METRICS_WINDOW_MINUTES } from '../../shared/policy';
import { DEFAULT_RELAYER_METRICS_URL, type RelayerOwnRow, type RelayerOwnView } from '../../shared/relayer-own-view';
import type { WatchedRelayer } from '../../shared/relayers';
import { canonicalNetwork } from '../../shared/validators';
import { EPISODE_WORDS } from '../../shared/vocabulary';
import { ChainDeliveries } from '../relayers/chain-deliveries';
import { openOwnAlerts, type OpenOwnAlert } from '../relayers/own-alerts-open';
import { OwnHistory } from '../relayers/own-history';
import { compareOwnView, ownKeyPrefix, type Comparison, type Holding } from '../relayers/own-vs-chain';
import { readMetricsText } from '../relayers/relayer-metrics-read';
import { parseRelayerMetrics, routeKey } from '../relayers/relayer-own-metrics';
import { ALWAYS_SEEING } from '../sources/sight';
import type { OpenEpisode } from '../store/relayer-episodes';
import type { EpisodeNeeds } from './episode-needs';
import type { Part } from './part';
import { MINUTE_MS } from '../../shared/time';

const KINDS = ['relayer_claims_unseen', 'relayer_failures'] as const;

interface RelayerMetricsWatchPart extends Part {
  /** After each poll cycle: reads the URLs that are due, then decides the disagreement alerts. */
  afterCycle(): Promise<void>;
  /** The view from the last reads (no request). */
  view(): RelayerOwnView;
  /** Sets or clears a watched relayer's URL; its history starts again. */
  setUrl(address: string, url: string | null): void;
}

/** What one relayer's reads hold (in memory: a restart starts with a baseline read). */
interface Reads {
  url: string;
  history: OwnHistory;
  lastTriedAt: number | null;
  lastReadAt: number | null;
  notRead: string | null;
}

export interface OwnViewMetrics {
  /** `open`: the disagreement alerts open once the cycle decided (held ones included). */
  observe(v: RelayerOwnView, open: readonly OpenOwnAlert[]): void;
}

export function relayerMetricsWatchPart(
  d: EpisodeNeeds & {
    emit: (e: MonitorEvent) => void;
    /** Redacts secrets (a URL's credentials) from a reason before it is kept or shown. */
    redact: (s: string) => string;
    metrics?: OwnViewMetrics;
    /** Defaults: the policy's. */
    everyMs?: number;
    windowMs?: number;
    timeoutMs?: number;
    maxBytes?: number;
  },
): RelayerMetricsWatchPart {
  const sight = d.sight ?? ALWAYS_SEEING;
  const everyMs = d.everyMs ?? RELAYER_METRICS_EVERY_MINUTES * MINUTE_MS;
  const windowMs = d.windowMs ?? RELAYER_METRICS_WINDOW_MINUTES * MINUTE_MS;
  const limits = { timeoutMs: d.timeoutMs ?? RELAYER_METRICS_TIMEOUT_MS, maxBytes: d.maxBytes ?? RELAYER_METRICS_MAX_BYTES };
  const chain = new ChainDeliveries(d.store);
  const reads = new Map<string, Reads>();
  let lastJson = '';

  /** The watched relayers with a URL, each with its reads (started, or restarted when its URL changed). */
  function targets(): { relayer: WatchedRelayer; reads: Reads }[] {
    const urls = d.store.relayerMetricsUrls.all();
    const out: { relayer: WatchedRelayer; reads: Reads }[] = [];
    const keep = new Set<string>();
    for (const relayer of d.store.relayerWatches.listRelayers()) {
      const key = relayer.address.toLowerCase();
      const url = urls.get(key);
      if (!url) continue;
      keep.add(key);
      let r = reads.get(key);
      if (!r || r.url !== url) reads.set(key, (r = { url, history: new OwnHistory(), lastTriedAt: null, lastReadAt: null, notRead: null }));
      out.push({ relayer, reads: r });
    }
    for (const key of reads.keys()) if (!keep.has(key)) reads.delete(key);
    return out;
  }

  async function readOne(r: Reads, now: number): Promise<void> {
    r.lastTriedAt = now;
    const text = await readMetricsText(r.url, limits);
    const parsed = text.ok ? parseRelayerMetrics(text.text) : null;
    if (!text.ok || !parsed?.ok) {
      const reason = d.redact(!text.ok ? text.reason : parsed && !parsed.ok ? parsed.reason : 'unknown');
      if (r.notRead !== reason) d.logger.warn('relayer metrics not read', { reason });
      r.notRead = reason;
      return;
    }
    r.notRead = null;
    r.lastReadAt = now;
    r.history.add({ at: now, counters: parsed.counters }, windowMs);
  }

  function compare(relayer: WatchedRelayer, r: Reads): Comparison | null {
    const w = r.history.window(windowMs);
    if (!w) return null;
    const s = d.settings();
    const all = d.store.relayerWatches.listRelayers();
    const net = canonicalNetwork(relayer.network);
    const routes = d.store.relayerWatches.listRoutes().filter((x) => canonicalNetwork(x.network) === net);
    const counts = chain.byRoute(relayer, all, w.from, w.to);
    return compareOwnView(w, {
      network: net,
      relayer: relayer.address,
      name: relayer.label || relayer.address,
      watched: (a, b) => routes.some((x) => x.sourceChain === a && x.destinationChain === b),
      chainDelivered: (a, b) => counts.get(routeKey(a, b)) ?? 0,
      thresholds: { claimExcess: s.relayerClaimExcess, failures: s.relayerFailuresInWindow },
      own: ownChainsOf(s.dataSource),
    });
  }

  function rowOf(relayer: WatchedRelayer, r: Reads | undefined, c: Comparison | null): RelayerOwnRow {
    const w = r?.history.window(windowMs) ?? null;
    const state = !r ? 'off' : r.notRead !== null ? 'not_read' : r.lastReadAt === null ? 'waiting' : w ? 'read' : 'baseline';
    return {
      address: relayer.address,
      label: relayer.label,
      network: relayer.network,
      metricsUrl: r?.url ?? null,
      state,
      notRead: r?.notRead != null ? `relayer metrics not read: ${r.notRead}` : null,
      lastReadAt: r?.lastReadAt ?? null,
      lastTriedAt: r?.lastTriedAt ?? null,
      from: w?.from ?? null,
      to: w?.to ?? null,
      routes: c?.routes ?? [],
      warnings: c?.holding.map((h) => h.body) ?? [],
    };
  }

  /** Fires what holds and is not open, resolves what is open and no longer holds; a relayer not read now (or a chain not seen) is held. */
  function decide(relayer: WatchedRelayer, r: Reads, c: Comparison | null, open: Map<string, OpenEpisode>, now: number, touched: Set<string>): void {
    const net = canonicalNetwork(relayer.network);
    const prefixes = KINDS.map((k) => ownKeyPrefix(k, net, relayer.address));
    const mine = [...open.values()].filter((e) => prefixes.some((p) => e.key.startsWith(p)));
    for (const e of mine) touched.add(e.key);
    if (r.notRead !== null || !c || !sight.seeing()) return;
    const seen = (h: { sourceChain: string; destinationChain: string }) => !h.sourceChain || (sight.sees(h.sourceChain) && sight.sees(h.destinationChain));
    const holding = new Map(c.holding.map((h) => [h.key, h]));
    for (const h of holding.values()) if (!open.has(h.key) && seen(h)) fire(relayer, h, now);
    const s = d.settings();
    for (const e of mine) {
      if (holding.has(e.key) || !seen(e)) continue;
      // Its threshold set to 0 (off): closed without an announcement.
      const off = (e.kind === 'relayer_claims_unseen' ? s.relayerClaimExcess : s.relayerFailuresInWindow) === 0;
      d.timeline.resolve(e, now, off ? null : { title: EPISODE_WORDS[e.kind].resolve(e.subject), body: resolvedBody(e, c, s) });
    }
  }

  function fire(relayer: WatchedRelayer, h: Holding, now: number): void {
    const subject = h.about;
    d.timeline.fire(
      {
        key: h.key,
        kind: h.kind,
        network: relayer.network,
        subject,
        sourceChain: h.sourceChain,
        destinationChain: h.destinationChain,
        startedAt: now,
        relayer: relayer.address,
      },
      now,
      { title: EPISODE_WORDS[h.kind].fire(subject), body: `${h.body[0]!.toUpperCase()}${h.body.slice(1)}` },
    );
  }

  function assemble(now: number, comparisons: Map<string, Comparison | null>): RelayerOwnView {
    const s = d.settings();
    return {
      at: now,
      everyMinutes: everyMs / MINUTE_MS,
      windowMinutes: windowMs / MINUTE_MS,
      claimExcess: s.relayerClaimExcess,
      failuresInWindow: s.relayerFailuresInWindow,
      defaultUrl: DEFAULT_RELAYER_METRICS_URL,
      relayers: d.store.relayerWatches.listRelayers().map((relayer) => {
        const key = relayer.address.toLowerCase();
        const r = reads.get(key);
        return rowOf(relayer, r, comparisons.get(key) ?? (r ? compare(relayer, r) : null));
      }),
    };
  }

  async function cycle(): Promise<void> {
    const now = d.clock.now();
    const list = targets();
    const due = list.filter((t) => t.reads.lastTriedAt === null || now - t.reads.lastTriedAt >= everyMs);
    // In parallel: each read is bounded by its timeout, so a slow relayer delays the cycle's end by that at most.
    await Promise.all(due.map((t) => readOne(t.reads, now)));
    const open = d.timeline.open([...KINDS]);
    const touched = new Set<string>();
    const comparisons = new Map<string, Comparison | null>();
    for (const t of list) {
      const c = compare(t.relayer, t.reads);
      comparisons.set(t.relayer.address.toLowerCase(), c);
      decide(t.relayer, t.reads, c, open, now, touched);
    }
    // A relayer no longer watched, or its URL cleared: closed without an announcement.
    for (const [key, e] of open) if (!touched.has(key)) d.timeline.resolve(e, now, null);
    const v = assemble(now, comparisons);
    // Read again after the fires and resolves: the gauges say what the core holds open, never what merely holds now.
    if (d.metrics) d.metrics.observe(v, openOwnAlerts(d.timeline.open([...KINDS]).values(), ownChainsOf(d.settings().dataSource)));
    const json = JSON.stringify({ ...v, at: 0 });
    if (json !== lastJson) {
      lastJson = json;
      d.emit({ type: 'relayer-own-view-changed' });
    }
  }

  return {
    name: 'relayer-metrics-watch',
    async afterCycle() {
      try {
        await cycle();
      } catch (e) {
        // A fault here never stops polling; the next cycle tries again.
        d.logger.error('relayer metrics watch failed', { error: e });
      }
    },
    view: () => assemble(d.clock.now(), new Map()),
    setUrl(address, url) {
      d.store.relayerMetricsUrls.set(address, url);
      targets();
      d.emit({ type: 'relayer-own-view-changed' });
    },
  };
}

/** How a disagreement ended, with the figures now. */
function resolvedBody(e: OpenEpisode, c: Comparison, s: Settings): string {
  const mins = c.minutes;
  if (e.kind === 'relayer_claims_unseen') {
    const row = c.routes.find((r) => r.sourceChain === e.sourceChain && r.destinationChain === e.destinationChain);
    return row
      ? `On ${row.routeName} the relayer says ${row.relayerDelivered} delivered and the chains show ${row.chainDelivered ?? 0} in the last ${mins} min: within ${s.relayerClaimExcess} of each other again.`
      : `The relayer no longer reports this route: nothing it claims there is unseen.`;
  }
  const reason = e.key.split(':').slice(3).join(':');
  const n = c.routes.reduce((sum, r) => sum + (r.failures.find((f) => f.reason === reason)?.count ?? 0), 0);
  return `${n} relays failed with reason '${reason}' in the last ${mins} min (under ${s.relayerFailuresInWindow}).`;
}
