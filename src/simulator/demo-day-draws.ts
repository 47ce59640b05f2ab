/**
 * What drawing a message takes of the demo day (demo-day.ts): on the demo relayers' routes no message
 * is left pending for good and executions fail only live (the history's were retried long ago), the
 * burst of failures comes at its time, and the stuck messages take a route of their own.
 */
import { CHAIN_REGISTRY } from '../shared/chains';
import type { DemoDay } from './demo-day';
import type { MessagePlan } from './message-plan';
import type { RelayerPersonas } from './relayer-personas';
import { MINUTE_MS } from '../shared/time';

interface RouteRef {
  source: string;
  destination: string;
}

export interface DemoDayDraws {
  day: DemoDay;
  originMs: number;
  personas: RelayerPersonas;
  /** The first demo route (C-Chain → the pair's other chain): the failures burst there. */
  burstRoute: RouteRef;
  /** Failures of the burst still to come. */
  burstLeft: number;
  /** C-Chain → a chain no demo relayer is offered for: a stuck message holds no offered route's backlog. */
  stuckRoute: RouteRef;
  /** The busiest addresses (the demo offers them to watch). */
  hot: ReadonlySet<string>;
}

export function demoDayDraws(day: DemoDay, personas: RelayerPersonas, originMs: number, hot: readonly string[]): DemoDayDraws {
  const mainnet = CHAIN_REGISTRY.chains.filter((c) => c.network === 'mainnet');
  const c = mainnet.find((x) => x.name === 'C-Chain')!;
  const burst = personas.describe().find((p) => p.behaviour === 'outage')?.routes[0];
  const other = mainnet.find((x) => x !== c && !personas.listsRoute(c.blockchainId, x.blockchainId))!;
  return {
    day,
    originMs,
    personas,
    burstRoute: burst ?? { source: c.blockchainId, destination: other.blockchainId },
    burstLeft: day.failures.count,
    stuckRoute: { source: c.blockchainId, destination: other.blockchainId },
    hot: new Set(hot),
  };
}

/** On a demo relayer's route (one a persona lists by name). */
export const onDemoRoute = (d: DemoDayDraws, p: MessagePlan): boolean => d.personas.listsRoute(p.source.blockchainId, p.destination.blockchainId);

/** The longest a demo route's delivery takes on the demo day (a slow relayer is slow, not lost), outages aside. */
export const DEMO_ROUTE_MAX_DELIVERY_MS = 3 * MINUTE_MS;
/**
 * The longest the indexer lists a demo route's change late on the demo day: the lag's tens of seconds
 * stay, its minutes (which a route backlog cannot tell from a relayer's) go, so the day's alerts are
 * the ones its timeline says. Elsewhere the lag keeps its whole tail (index-lag.ts).
 */
export const DEMO_ROUTE_MAX_LAG_MS = MINUTE_MS;

/**
 * Shapes a freshly drawn message (`drawnOutcome`: its outcome was drawn, not asked for; `hot`: it
 * is from or to one of the busiest addresses, the ones the demo offers to watch).
 */
export function shapeDemoPlan(d: DemoDayDraws, p: MessagePlan, o: { drawnOutcome: boolean; executedAsked: boolean; hot: boolean }): void {
  const demoRoute = onDemoRoute(d, p);
  // A message never delivered would hold a backlog, or a stuck message, for good: on the demo day a relayer takes it.
  if ((demoRoute || o.hot) && o.drawnOutcome && p.outcome === 'undelivered') p.outcome = 'normal';
  // The day's failures on the demo routes are its burst (failsAtDelivery; the history's were retried long ago).
  if (demoRoute && !o.executedAsked) p.executed = true;
  if (demoRoute) p.maxLagMs = DEMO_ROUTE_MAX_LAG_MS;
}

/** A delivery at `at` on the burst route from the burst's time on fails, until the burst is spent. */
export function failsAtDelivery(d: DemoDayDraws, p: MessagePlan, at: number): boolean {
  const r = d.burstRoute;
  if (d.burstLeft <= 0 || at < d.originMs + d.day.failures.atMs || p.source.blockchainId !== r.source || p.destination.blockchainId !== r.destination)
    return false;
  d.burstLeft--;
  return true;
}
