/**
 * Prometheus gauges of the watched relayers' economics (issue 31), read at scrape time from the last
 * poll cycle's figures: each wallet's balance and hours to empty per chain, the fuel alert's state,
 * per relayer and route the last day's rewards paid and owed and its failed executions, and per watched
 * route its failed executions of the last hour and its failed-execution alert's state. Labels are
 * the watched relayers' labels (else addresses), chain names and route names, capped like the others. A
 * route is named as every other series names it (relayer-metrics.ts' routeName): its watch's label, else
 * its chains, so one route has one `route` label across the exposition.
 */
import { Gauge, type Registry } from 'prom-client';
import type { RelayerEconomics, RelayerFuel, RouteEarnings, RouteFailureRow, TokenSum } from '../../shared/relayers';
import { METRIC_PREFIX } from './core-metrics';
import { LabelCap } from './label-cap';

const MAX_RELAYERS = 200;
const MAX_CHAINS = 100;
const MAX_ROUTES = 200;
const MAX_TOKENS = 50;

const whole = (value: string, decimals: number) => Number(value) / 10 ** decimals;

export class FuelMetrics {
  private last: RelayerEconomics | null = null;
  private readonly relayers = new LabelCap(MAX_RELAYERS);
  private readonly chains = new LabelCap(MAX_CHAINS);
  private readonly routes = new LabelCap(MAX_ROUTES);
  private readonly tokens = new LabelCap(MAX_TOKENS);

  constructor(registry: Registry) {
    const registers = [registry];
    const fuel = () => this.last?.fuel ?? [];
    const day = () => this.last?.earnings.day ?? [];
    const wallet = (f: RelayerFuel) => ({ relayer: this.relayers.of(f.relayerLabel || f.relayer), chain: this.chains.of(f.chainName) });
    const failures = () => this.last?.routeFailures ?? [];
    const routeName = (r: RouteFailureRow) => r.label || r.routeLabel;
    // An earnings row's route by its watch (the failures list one row per watched route).
    const nameOf = (e: RouteEarnings) => {
      const w = failures().find((r) => r.sourceChain === e.sourceChain && r.destinationChain === e.destinationChain);
      return w ? routeName(w) : e.routeLabel;
    };
    const route = (e: RouteEarnings) => ({ relayer: this.relayers.of(e.relayerLabel || e.relayer), route: this.routes.of(nameOf(e)) });
    const watchedRoute = (r: RouteFailureRow) => ({ route: this.routes.of(routeName(r)) });
    const token = (t: TokenSum) => this.tokens.of(t.symbol || t.token);
    const gauge = (name: string, help: string, labelNames: string[], fill: (g: Gauge) => void) =>
      new Gauge({
        name: `${METRIC_PREFIX}${name}`,
        help,
        labelNames,
        registers,
        collect() {
          this.reset();
          fill(this);
        },
      });
    gauge(
      'relayer_balance',
      "A watched relayer's gas balance on a chain, in whole native tokens, at its last read (absent until read).",
      ['relayer', 'chain'],
      (g) => {
        for (const f of fuel()) if (f.balance !== null) g.set(wallet(f), whole(f.balance, f.decimals));
      },
    );
    gauge(
      'relayer_hours_to_empty',
      "Hours until a watched relayer's wallet on a chain is empty at the last hour's burn rate, rounded as the app says it and capped at 8760 (a year) (absent: nothing burnt in the last hour, or not read yet).",
      ['relayer', 'chain'],
      (g) => {
        for (const f of fuel()) if (f.hoursToEmpty !== null) g.set(wallet(f), f.hoursToEmpty);
      },
    );
    gauge(
      'relayer_burn_per_hour',
      "Gas a watched relayer's deliveries spent on a chain in the last hour, in whole native tokens.",
      ['relayer', 'chain'],
      (g) => {
        for (const f of fuel()) g.set(wallet(f), whole(f.burnLastHour, f.decimals));
      },
    );
    gauge(
      'relayer_fuel_low',
      "1 while the app's fuel alert fires for a watched relayer's wallet on a chain (until a refill), else 0.",
      ['relayer', 'chain'],
      (g) => {
        for (const f of fuel()) g.set(wallet(f), f.low ? 1 : 0);
      },
    );
    gauge(
      'relayer_balance_read_timestamp_seconds',
      "Unix time of the last successful read of a watched relayer's gas balance on a chain.",
      ['relayer', 'chain'],
      (g) => {
        for (const f of fuel()) if (f.readAt !== null) g.set(wallet(f), f.readAt / 1000);
      },
    );
    gauge(
      'relayer_rewards_paid',
      "Rewards of a watched relayer's deliveries in the last 24 h whose receipt came back (paid), in whole tokens, by route and token.",
      ['relayer', 'route', 'token'],
      (g) => {
        for (const e of day()) for (const t of e.paid) g.set({ ...route(e), token: token(t) }, whole(t.value, t.decimals));
      },
    );
    gauge(
      'relayer_rewards_owed',
      "Rewards of a watched relayer's deliveries in the last 24 h whose receipt is not back yet (owed), in whole tokens, by route and token.",
      ['relayer', 'route', 'token'],
      (g) => {
        for (const e of day()) for (const t of e.owed) g.set({ ...route(e), token: token(t) }, whole(t.value, t.decimals));
      },
    );
    gauge(
      'relayer_failed_executions',
      "A watched relayer's deliveries in the last 24 h whose execution failed (messageExecuted false: someone must retry them), by route.",
      ['relayer', 'route'],
      (g) => {
        for (const e of day()) g.set(route(e), e.failedExecutions.count);
      },
    );
    gauge(
      'route_failed_executions',
      "A watched route's deliveries in the last hour, by any relayer, whose execution failed (what the route's failed-execution alert counts).",
      ['route'],
      (g) => {
        for (const r of failures()) g.set(watchedRoute(r), r.hour.count);
      },
    );
    gauge(
      'route_failed_executions_alert',
      "1 while the app's failed-execution alert fires for a watched route (its last hour's failures at or above routeFailedExecutionsPerHour), else 0.",
      ['route'],
      (g) => {
        for (const r of failures()) g.set(watchedRoute(r), r.firing ? 1 : 0);
      },
    );
  }

  observe(e: RelayerEconomics): void {
    this.last = e;
  }
}
