/**
 * The watched relayers' economics (issue 31), wired: after each poll cycle, the deliveries of the last day
 * (on watched routes, as the relayer figures' pass reads them: relayers/economics-pass.ts) give each
 * wallet's payments and each route's earnings and failures; each route's failed-execution alert is judged
 * (relayers/failed-execution-alert.ts); the balances due are read through the Data API client
 * (relayers/balance-reads.ts; counted in the plan's budget) and judged by the fuel alert
 * (relayers/fuel-alert.ts); on your own nodes the redeemable rewards are read from the local service
 * on the same cadence; `relayerEconomics` answers from the last pass (relayers/economics-answer.ts), and a
 * change is announced as an event.
 */
import { ownChainsOf } from '../../shared/chains';
import type { MonitorEvent } from '../../shared/contract';
import { BALANCE_MAX_AGE_MINUTES, BALANCE_READ_EVERY_MINUTES } from '../../shared/policy';
import type { RelayerEconomics } from '../../shared/relayers';
import type { Network } from '../../shared/validators';
import type { DataApiClient } from '../data-api/client';
import { readRelayerRewards } from '../own-nodes/relayer-rewards';
import { BalanceReads } from '../relayers/balance-reads';
import { economicsAnswer } from '../relayers/economics-answer';
import { ownPass, tappedPass, type EconomicsPass } from '../relayers/economics-pass';
import type { WalletPayments } from '../relayers/economics';
import { decideFailedExecutionAlerts } from '../relayers/failed-execution-alert';
import type { DeliveryTap } from '../relayers/figure-accumulator';
import { FuelAlert } from '../relayers/fuel-alert';
import { forgetReads, fuelWallets, readsByWallet } from '../relayers/fuel-wallets';
import { RedeemableReads } from '../relayers/redeemable-reads';
import { RelayerFigures } from '../relayers/relayer-figures';
import { routesHistoryFrom } from '../relayers/route-history';
import { ALWAYS_SEEING } from '../sources/sight';
import type { FuelRead } from '../store/relayer-fuel';
import type { EpisodeNeeds } from './episode-needs';
import type { Part } from './part';
import { MINUTE_MS } from '../../shared/time';

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

export function relayerEconomicsPart(
  /** The episodes: fuel and failed executions. */
  d: EpisodeNeeds & {
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
    /** Where the local service answers (null: not up): redeemable rewards are read there while own nodes are the data source. */
    ownNodesUrl?: () => string | null;
  },
): RelayerEconomicsPart {
  const sight = d.sight ?? ALWAYS_SEEING;
  const figures = new RelayerFigures(d.store);
  const readEveryMs = d.readEveryMs ?? BALANCE_READ_EVERY_MINUTES * MINUTE_MS;
  const cadence = { readEveryMs, maxAgeMs: Math.max(readEveryMs, d.maxAgeMs ?? BALANCE_MAX_AGE_MINUTES * MINUTE_MS) };
  const thresholdHours = () => d.settings().relayerFuelThresholdHours;
  /** Your own nodes' chains while they are the data source: routes and wallets are named by their names. */
  const ownChains = () => ownChainsOf(d.settings().dataSource);
  /** The local service's URL while own nodes are the data source (else null: the Data API has no redeemable operation). */
  const ownNodesUrl = () => (d.settings().dataSource.kind === 'ownNodes' ? (d.ownNodesUrl?.() ?? null) : null);
  const redeemables = new RedeemableReads(
    (chain, relayer, tokens) => {
      const url = ownNodesUrl();
      return url ? readRelayerRewards(url, chain, relayer, tokens) : Promise.resolve({ ok: false, error: 'own nodes are not the data source' });
    },
    readEveryMs,
    (c, error) => d.logger.warn('redeemable rewards read failed', { chain: c.chain, relayer: c.relayer, error }),
  );
  const fuelAlert = new FuelAlert({ door: d.timeline, sight, thresholdHours, ownChains });
  const balances = new BalanceReads({ fuel: d.store.relayerFuel, client: d.client, redact: d.redact, sight, cadence, thresholdHours, alert: fuelAlert });
  let last: RelayerEconomics | null = null;
  /** The pass the figures' pass filled this cycle (through `tap`). */
  let tapped: EconomicsPass | null = null;
  let lastJson = '';

  /** The figures from the pass and the stored reads (no request). */
  function answer(pass: EconomicsPass, wallets: WalletPayments[], reads: Map<string, FuelRead>): RelayerEconomics {
    const open = new Set(d.timeline.open(['fuel_low', 'route_failed_executions']).keys());
    const redeemable = ownNodesUrl() ? redeemables.amount : undefined;
    return economicsAnswer({
      now: pass.now,
      acc: pass.acc,
      failures: pass.failures,
      wallets,
      reads,
      open,
      own: ownChains(),
      historyFrom: routesHistoryFrom(d.store.watches, pass.now),
      redeemable,
      fuelThresholdHours: thresholdHours(),
      failedExecutionsPerHour: d.settings().routeFailedExecutionsPerHour,
      readEveryMs,
      maxAgeMs: cadence.maxAgeMs,
    });
  }

  async function cycle(): Promise<void> {
    const now = d.clock.now();
    const pass = tapped?.now === now ? tapped : ownPass(figures, now);
    tapped = null;
    // Not seeing is not news about relayers: while the source is not read, no alert is judged and no balance asked.
    const seeing = sight.seeing();
    if (seeing)
      decideFailedExecutionAlerts(
        { door: d.timeline, sight, threshold: d.settings().routeFailedExecutionsPerHour, own: ownChains() },
        pass.failures.counts(),
        now,
      );
    const before = readsByWallet(d.store.relayerFuel);
    const wallets = fuelWallets(pass.relayers, pass.acc.walletPayments(), before);
    await balances.readDue(wallets, before, now);
    // Wallets no longer watched: their reads forgotten, their alert closed without an announcement.
    forgetReads(d.store.relayerFuel, wallets, before);
    fuelAlert.closeUnwatched(wallets, now);
    if (ownNodesUrl()) await redeemables.refresh(pass.acc.rewardCredits(), now, (chain) => seeing && sight.sees(chain));
    else redeemables.clear();
    const e = answer(pass, wallets, readsByWallet(d.store.relayerFuel));
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
      const t = tappedPass(d.store.relayerWatches.listRelayers(), d.store.relayerWatches.listRoutes(), now);
      tapped = t.pass;
      return t.tap;
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
      if (last) return { ...last, fuelThresholdHours: thresholdHours(), failedExecutionsPerHour: d.settings().routeFailedExecutionsPerHour };
      // No cycle yet: the cache and the stored reads, nothing read upstream.
      const pass = ownPass(figures, d.clock.now());
      const reads = readsByWallet(d.store.relayerFuel);
      return answer(pass, fuelWallets(pass.relayers, pass.acc.walletPayments(), reads), reads);
    },
  };
}
