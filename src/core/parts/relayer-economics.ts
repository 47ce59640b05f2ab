/**
 * The watched relayers' economics (issue 31): after each poll cycle, the deliveries of the last day
 * (on watched routes, as the relayer figures' pass reads them) give each wallet's payments and each
 * route's earnings; balances due are
 * read through the Data API client when they matter (src/core/relayers/fuel-reads.ts; counted in the plan's budget); the
 * fuel alert and each watched route's failed-execution alert fire and resolve as episodes through the
 * outbox (notifications, tray, alert channels); on your own nodes the redeemable rewards are read from the own-nodes service on the
 * same cadence; `relayerEconomics` answers from the last pass, and a change is announced as an event.
 */
import type { Clock } from '../../shared/clock';
import { chainByBlockchainId, chainLabel, ownChainsOf, routeLabel, type OwnChain } from '../../shared/chains';
import type { MonitorEvent, Settings } from '../../shared/contract';
import { BALANCE_MAX_AGE_MINUTES, BALANCE_READ_EVERY_MINUTES } from '../../shared/policy';
import type { RelayerEconomics, RelayerFuel, WatchedRelayer, WatchedRoute } from '../../shared/relayers';
import type { Network } from '../../shared/validators';
import { EPISODE_WORDS } from '../../shared/vocabulary';
import type { DataApiClient } from '../data-api/client';
import type { Logger } from '../log/logger';
import { RelayerFigures } from '../relayers/relayer-figures';
import { EconomicsAccumulator, walletKey, type WalletPayments } from '../relayers/economics';
import { decideFuelAlert, fuelFigures, spentAfter, type FuelFigures, type GasPayment } from '../relayers/fuel';
import { estimatedHoursToEmpty, readDue } from '../relayers/fuel-reads';
import { roundHoursToEmpty } from '../../shared/time-to-empty';
import { routesHistoryFrom } from '../relayers/route-history';
import { RedeemableReads } from '../relayers/redeemable-reads';
import { failedKey, holdingRoutes, RouteFailures, type RouteFailureCount } from '../relayers/route-failures';
import { readRelayerRewards } from '../own-nodes/relayer-rewards';
import type { DeliveryTap } from '../relayers/figure-accumulator';
import type { Store } from '../store';
import type { FuelRead } from '../store/relayer-fuel';
import type { AlertTimeline } from './alert-timeline';
import type { Part } from './part';
import { ALWAYS_SEEING, type Sight } from '../sources/sight';

interface RelayerEconomicsPart extends Part {
  /**
   * What sees each delivery of the relayer figures' pass (the relayer-alerts part's, once per cycle), so
   * the after-cycle work that follows at the same moment needs no second pass over the cache.
   */
  tap(now: number): DeliveryTap;
  /** After each poll cycle: decides the failed-execution alerts, reads the balances due, decides the fuel alert, recomputes the figures. */
  afterCycle(): Promise<void>;
  /** The figures of the last cycle (computed now when none ran yet). */
  economics(): RelayerEconomics;
}

interface EconomicsMetrics {
  observe(e: RelayerEconomics): void;
}

const shortAddress = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`;
const fuelEpisodeKey = (relayer: string, blockchainId: string) => `fuel:${relayer.toLowerCase()}:${blockchainId}`;
const failedKeyOf = (r: WatchedRoute) => failedKey(r.id);
/**
 * Since when a wallet's day burn is held: the routes' history start, or its first delivery in the day
 * when later (a world or a relayer younger than a day holds less, however much of its list was read).
 */
const burnHeldFrom = (payments: readonly GasPayment[], historyFrom: number | null): number | null => {
  const first = payments.reduce<number | null>((m, p) => (m === null || p.at < m ? p.at : m), null);
  if (first === null) return historyFrom;
  return historyFrom === null ? first : Math.max(first, historyFrom);
};

interface Target {
  relayer: string;
  watched: WatchedRelayer;
  blockchainId: string;
  payments: WalletPayments['payments'];
}

export function relayerEconomicsPart(d: {
  store: Store;
  clock: Clock;
  logger: Logger;
  settings: () => Settings;
  /** Where the fuel and failed-execution episodes fire and resolve (listed in Activity, logged, announced). */
  timeline: Pick<AlertTimeline, 'open' | 'fire' | 'resolve'>;
  /** The Data API client of a network (null: no data source yet). */
  client: (network: Network) => DataApiClient | null;
  emit: (e: MonitorEvent) => void;
  /** Redacts secrets from a read's error before it is stored. */
  redact: (s: string) => string;
  metrics?: EconomicsMetrics;
  /** Default: BALANCE_READ_EVERY_MINUTES. */
  readEveryMs?: number;
  /** Default: BALANCE_MAX_AGE_MINUTES. */
  maxAgeMs?: number;
  /** Where the own-nodes service answers (null: not up): redeemable rewards are read there while own nodes are the data source. */
  ownNodesUrl?: () => string | null;
  /** Whether the source and each chain are read now: an alert judged from what is not seen is held (default: sees everything). */
  sight?: Sight;
}): RelayerEconomicsPart {
  const sight = d.sight ?? ALWAYS_SEEING;
  const figures = new RelayerFigures(d.store);
  const readEveryMs = d.readEveryMs ?? BALANCE_READ_EVERY_MINUTES * 60_000;
  const cadence = { readEveryMs, maxAgeMs: Math.max(readEveryMs, d.maxAgeMs ?? BALANCE_MAX_AGE_MINUTES * 60_000) };
  let last: RelayerEconomics | null = null;
  /** The deliveries the figures' pass handed over this cycle. */
  let tapped: { now: number; relayers: WatchedRelayer[]; acc: EconomicsAccumulator; failures: RouteFailures } | null = null;
  let lastJson = '';
  /** Your own nodes' chains while they are the data source: routes and wallets are named by their names. */
  const ownChains = () => ownChainsOf(d.settings().dataSource);
  /** The own-nodes service's URL while own nodes are the data source (else null: the Data API has no redeemable operation). */
  const ownNodesUrl = () => (d.settings().dataSource.kind === 'ownNodes' ? (d.ownNodesUrl?.() ?? null) : null);
  const redeemables = new RedeemableReads(
    (chain, relayer, tokens) => {
      const url = ownNodesUrl();
      return url ? readRelayerRewards(url, chain, relayer, tokens) : Promise.resolve({ ok: false, error: 'own nodes are not the data source' });
    },
    readEveryMs,
    (c, error) => d.logger.warn('redeemable rewards read failed', { chain: c.chain, relayer: c.relayer, error }),
  );

  /** A pass of its own, the same as the figures' (no figures' pass this cycle, or the answer before the first cycle). */
  function scan(now: number) {
    const scope = figures.scope(now);
    const acc = new EconomicsAccumulator(scope.relayers, now);
    const failures = new RouteFailures(scope.routes, now);
    figures.figures(scope, (a) => {
      acc.add(a.delivery);
      failures.add(a);
    });
    return { relayers: scope.relayers, acc, failures };
  }

  /** The failed-execution alert of each watched route: fired at or above the threshold, resolved below it, closed quietly when no longer watched or its alert is off. */
  function decideFailureAlerts(counts: RouteFailureCount[], now: number): void {
    const threshold = d.settings().routeFailedExecutionsPerHour;
    const holding = holdingRoutes(counts, threshold);
    const watched = new Set(counts.filter((c) => c.route.alert && threshold > 0).map((c) => failedKeyOf(c.route)));
    const open = d.timeline.open(['route_failed_executions']);
    // A route with a chain not read now is held: it neither fires nor resolves (sources/sight.ts).
    const held = new Set(counts.filter((c) => !sight.sees(c.route.sourceChain) || !sight.sees(c.route.destinationChain)).map((c) => failedKeyOf(c.route)));
    for (const [key, h] of holding) {
      if (open.has(key) || held.has(key)) continue;
      const r = h.count.route;
      const route = routeLabel(r.sourceChain, r.destinationChain, ownChains());
      const subject = r.label || route;
      const episode = {
        key,
        kind: 'route_failed_executions' as const,
        network: r.network,
        subject,
        sourceChain: r.sourceChain,
        destinationChain: r.destinationChain,
        startedAt: h.since,
      };
      d.timeline.fire(episode, now, {
        title: EPISODE_WORDS.route_failed_executions.fire(subject),
        body: `${h.count.count} message(s) delivered on ${route} in the last hour failed to execute (threshold ${threshold}): someone must call retryMessageExecution (Relayers view, Failed executions).`,
      });
    }
    for (const [key, e] of open) {
      if (holding.has(key) || held.has(key)) continue;
      const text = watched.has(key)
        ? {
            title: EPISODE_WORDS.route_failed_executions.resolve(e.subject),
            body: `Fewer than ${threshold} messages delivered on ${e.subject} in the last hour failed to execute.`,
          }
        : null;
      d.timeline.resolve(e, now, text);
    }
  }

  /** Wallets with deliveries in the last day, and wallets read before whose address is still a watched relayer. */
  function targetsOf(relayers: readonly WatchedRelayer[], wallets: WalletPayments[], reads: Map<string, FuelRead>): Target[] {
    const targets = new Map<string, Target>(wallets.map((w) => [walletKey(w.relayer, w.blockchainId), { ...w }]));
    for (const [key, r] of reads) {
      if (targets.has(key)) continue;
      const watched = relayers.find((x) => x.address.toLowerCase() === r.relayer);
      if (watched) targets.set(key, { relayer: r.relayer, watched, blockchainId: r.blockchainId, payments: [] });
    }
    return [...targets.values()];
  }

  async function readBalance(t: Target, previous: FuelRead | undefined, now: number): Promise<void> {
    const client = d.client(t.watched.network);
    if (!client) return;
    const chain = chainByBlockchainId(t.blockchainId);
    const read = await client.getNativeBalance(chain?.evmChainId ?? t.blockchainId, t.relayer);
    if (!read.ok) {
      d.store.relayerFuel.recordFailure({ relayer: t.relayer, blockchainId: t.blockchainId, error: d.redact(read.error.message), at: now });
      return;
    }
    const b = read.value;
    d.store.relayerFuel.recordRead({
      relayer: t.relayer,
      blockchainId: t.blockchainId,
      balance: b.balance,
      symbol: b.symbol,
      decimals: b.decimals,
      usdPrice: b.usdPrice ?? null,
      at: now,
    });
    const lastRead = previous?.balance != null && previous.readAt !== null ? { balance: previous.balance, at: previous.readAt } : undefined;
    decideAlert(t, lastRead, fuelFigures(b.balance, t.payments, now), now);
  }

  function decideAlert(t: Target, lastRead: { balance: bigint; at: number } | undefined, figures: FuelFigures, now: number): void {
    // A wallet on a chain not read now is held (its payments there are not seen).
    if (!sight.sees(t.blockchainId)) return;
    const key = fuelEpisodeKey(t.relayer, t.blockchainId);
    const open = d.timeline.open(['fuel_low']).get(key);
    const name = t.watched.label || shortAddress(t.watched.address);
    const chain = chainLabel(t.blockchainId, ownChains());
    const state = { firing: open !== undefined, ...(lastRead ? { lastRead } : {}) };
    const { change } = decideFuelAlert(state, { figures, payments: t.payments, at: now }, d.settings().relayerFuelThresholdHours, { relayer: name, chain });
    if (!change) return;
    if (change.kind === 'fire') {
      const episode = {
        key,
        kind: 'fuel_low' as const,
        network: t.watched.network,
        subject: `${name} on ${chain}`,
        sourceChain: '',
        destinationChain: t.blockchainId,
        startedAt: now,
        relayer: t.watched.address,
      };
      d.timeline.fire(episode, now, { title: EPISODE_WORDS.fuel_low.fire(episode.subject), body: change.text });
    } else if (open) {
      d.timeline.resolve(open, now, { title: EPISODE_WORDS.fuel_low.resolve(open.subject), body: change.text });
    }
  }

  /** Wallets no longer watched: their reads forgotten, their alert closed without an announcement. */
  function forget(targets: Target[], reads: Map<string, FuelRead>, now: number): void {
    const keep = new Set(targets.map((t) => walletKey(t.relayer, t.blockchainId)));
    for (const [key, r] of reads) if (!keep.has(key)) d.store.relayerFuel.remove(r.relayer, r.blockchainId);
    const episodes = new Set(targets.map((t) => fuelEpisodeKey(t.relayer, t.blockchainId)));
    for (const [key, e] of d.timeline.open(['fuel_low'])) if (!episodes.has(key)) d.timeline.resolve(e, now, null);
  }

  function fuelOf(t: Target, r: FuelRead | undefined, low: boolean, now: number, own: readonly OwnChain[], heldFrom: number | null): RelayerFuel {
    const chain = chainByBlockchainId(t.blockchainId);
    const f = fuelFigures(r?.balance ?? 0n, t.payments, now, burnHeldFrom(t.payments, heldFrom));
    // The balance now: the last read less what deliveries after it paid.
    const spentSince = r?.readAt != null ? spentAfter(t.payments, r.readAt) : 0n;
    const left = r?.balance != null && r.balance > spentSince ? r.balance - spentSince : 0n;
    const hours = r?.balance == null || f.burnPerHourLastHour === 0n ? null : Number((left * 1_000_000n) / f.burnPerHourLastHour) / 1_000_000;
    return {
      relayer: t.relayer,
      relayerLabel: t.watched.label,
      blockchainId: t.blockchainId,
      chainName: chainLabel(t.blockchainId, own),
      balance: r?.balance != null ? r.balance.toString() : null,
      symbol: r?.symbol || chain?.nativeSymbol || 'native',
      decimals: r?.readAt != null ? r.decimals : 18,
      usdPrice: r?.usdPrice ?? null,
      burnLastHour: f.burnPerHourLastHour.toString(),
      burnPerHourLastDay: f.burnPerHourLastDay.toString(),
      burnHours: f.burnHours,
      hoursToEmpty: roundHoursToEmpty(hours),
      readAt: r?.readAt ?? null,
      readError: r?.readError ?? null,
      low,
    };
  }

  const loadReads = () => new Map(d.store.relayerFuel.all().map((r) => [walletKey(r.relayer, r.blockchainId), r]));

  /** The figures from the cache's pass and the stored reads (no request). */
  function assemble(now: number, acc: EconomicsAccumulator, failures: RouteFailures, targets: Target[], reads: Map<string, FuelRead>): RelayerEconomics {
    const open = d.timeline.open(['fuel_low', 'route_failed_executions']);
    const own = ownChains();
    const historyFrom = routesHistoryFrom(d.store.watches, now);
    const fuel = targets
      .map((t) => fuelOf(t, reads.get(walletKey(t.relayer, t.blockchainId)), open.has(fuelEpisodeKey(t.relayer, t.blockchainId)), now, own, historyFrom))
      .sort((a, b) => (a.relayerLabel || a.relayer).localeCompare(b.relayerLabel || b.relayer) || a.chainName.localeCompare(b.chainName));
    const prices = new Map<string, number>();
    for (const r of reads.values()) if (r.usdPrice !== null) prices.set(r.blockchainId, r.usdPrice);
    const nativeUsd = (chain: string) => prices.get(chain) ?? null;
    const redeemable = ownNodesUrl() ? redeemables.amount : undefined;
    const byName = (a: { relayerLabel: string; relayer: string; routeLabel: string }, b: typeof a) =>
      (a.relayerLabel || a.relayer).localeCompare(b.relayerLabel || b.relayer) || a.routeLabel.localeCompare(b.routeLabel);
    return {
      at: now,
      historyFrom,
      fuel,
      earnings: { hour: acc.earnings('hour', nativeUsd, redeemable, own).sort(byName), day: acc.earnings('day', nativeUsd, redeemable, own).sort(byName) },
      fuelThresholdHours: d.settings().relayerFuelThresholdHours,
      balanceReadEveryMinutes: readEveryMs / 60_000,
      balanceMaxAgeMinutes: cadence.maxAgeMs / 60_000,
      routeFailures: failures.rows((routeId) => open.has(failedKey(routeId)), own),
      failedExecutionsPerHour: d.settings().routeFailedExecutionsPerHour,
    };
  }

  async function cycle(): Promise<void> {
    const now = d.clock.now();
    const { relayers, acc, failures } = tapped?.now === now ? tapped : scan(now);
    tapped = null;
    // Not seeing is not news about relayers: while the source is not read, no alert is judged and no balance asked.
    const seeing = sight.seeing();
    if (seeing) decideFailureAlerts(failures.counts(), now);
    const before = loadReads();
    const targets = targetsOf(relayers, acc.walletPayments(), before);
    const firing = d.timeline.open(['fuel_low']);
    const thresholdHours = d.settings().relayerFuelThresholdHours;
    for (const t of targets) {
      const r = before.get(walletKey(t.relayer, t.blockchainId));
      const wallet = { hoursToEmpty: estimatedHoursToEmpty(r, t.payments, now), thresholdHours, firing: firing.has(fuelEpisodeKey(t.relayer, t.blockchainId)) };
      if (seeing && sight.sees(t.blockchainId) && readDue(r, now, cadence, wallet)) await readBalance(t, r, now);
    }
    forget(targets, before, now);
    if (ownNodesUrl()) await redeemables.refresh(acc.rewardCredits(), now, (chain) => seeing && sight.sees(chain));
    else redeemables.clear();
    const e = assemble(now, acc, failures, targets, loadReads());
    last = e;
    d.metrics?.observe(e);
    const json = JSON.stringify(e);
    if (json !== lastJson) {
      lastJson = json;
      d.emit({ type: 'relayer-economics-changed' });
    }
  }

  return {
    name: 'relayer-economics',
    tap(now) {
      const relayers = d.store.relayerWatches.listRelayers();
      const t = { now, relayers, acc: new EconomicsAccumulator(relayers, now), failures: new RouteFailures(d.store.relayerWatches.listRoutes(), now) };
      tapped = t;
      return (a) => {
        t.acc.add(a.delivery);
        t.failures.add(a);
      };
    },
    async afterCycle() {
      try {
        await cycle();
      } catch (e) {
        // A fault here never stops polling; the next cycle tries again.
        d.logger.error('relayer economics failed', { error: e });
      }
    },
    economics() {
      if (last)
        return { ...last, fuelThresholdHours: d.settings().relayerFuelThresholdHours, failedExecutionsPerHour: d.settings().routeFailedExecutionsPerHour };
      // No cycle yet: the cache and the stored reads, nothing read upstream.
      const now = d.clock.now();
      const { relayers, acc, failures } = scan(now);
      const reads = loadReads();
      return assemble(now, acc, failures, targetsOf(relayers, acc.walletPayments(), reads), reads);
    },
  };
}
