/**
 * The grid's fourth watch set (issue 27 item 2): 5 routes and 3 relayers of the simulated world (seeded
 * route plan, src/simulator/route-plan.ts; the demo's relayer personas). Routes: the busy
 * C-Chain ↔ L1 pair both ways (where the personas deliver), a third busy route, a quiet two-way route's
 * one way and a one-way route. Relayers: the fast one, the one with outages and a steady one.
 */
import type { SimulatedService } from '../src/local-service';
import type { RouteFilter } from './fair-pollers/watch-poller';

const RELAYERS = ['Swift', 'Blinker', 'Steady A'];

export function gridRoutes(svc: SimulatedService) {
  const plan = svc.simulator.routes;
  if (!plan) throw new Error('The routes-and-relayers row needs the realistic world (its sparse routes).');
  const busy = plan.busy.mainnet.map(([r]) => r);
  const oneWay = plan.oneWay.filter((r) => r.source.network === 'mainnet');
  const quiet = plan.quiet.filter((r) => r.source.network === 'mainnet' && !oneWay.includes(r));
  const chosen = [busy[0], busy[1], busy[2], quiet[0], oneWay[0]];
  if (chosen.some((r) => !r)) throw new Error('The seeded world lacks a busy, quiet or one-way mainnet route for the grid.');
  const routes = chosen.map((r) => r!);
  const filters: RouteFilter[] = routes.map((r) => ({ sourceBlockchainId: r.source.blockchainId, destinationBlockchainId: r.destination.blockchainId }));
  const keys = new Set(filters.map((f) => `${f.sourceBlockchainId}>${f.destinationBlockchainId}`));
  const named = svc.simulator.demoRelayers();
  const relayers = RELAYERS.map((name) => {
    const r = named.find((x) => x.name === name);
    if (!r) throw new Error(`The world has no relayer persona "${name}".`);
    return r.address;
  });
  const relayerSet = new Set(relayers.map((a) => a.toLowerCase()));
  return {
    filters,
    relayers,
    relayerNames: RELAYERS,
    labels: routes.map((r, i) => `${r.source.name} → ${r.destination.name} (${i < 3 ? 'busy' : i === 3 ? 'quiet' : 'one-way'})`),
    /** A record on one of the watched routes (what the truth and the fair pollers watch). */
    onRoutes: (r: Record<string, unknown>) => keys.has(`${String(r.sourceBlockchainId)}>${String(r.destinationBlockchainId)}`),
    /** The watched relayer (lower case) that delivered this message, as the core attributes it (deliverer, else reward address); null: none. */
    deliveredBy(messageId: string): string | null {
      const dst = svc.store.get(messageId)?.destinationTransaction as { delivererAddress?: string; rewardRedeemer?: string } | undefined;
      const who = [dst?.delivererAddress, dst?.rewardRedeemer].map((a) => a?.toLowerCase()).find((a) => a !== undefined && relayerSet.has(a));
      return who ?? null;
    },
  };
}
