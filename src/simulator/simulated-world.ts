/**
 * The simulated world as the Data API server serves it (the demo, tests, benchmarks): a TrafficSimulator
 * writing into the server's store, its relayers' wallets answering the balance operation. Loaded only
 * when this world is asked for (compose-world.ts imports it dynamically).
 */
import { CHAIN_REGISTRY } from '../shared/chains';
import type { World, WorldPlugin } from '../local-service/world';
import { historyMessageCount, historyRate, rememberedSeed } from './history';
import type { Route, RoutePlan } from './route-plan';
import { TrafficSimulator } from './simulator';
import { answerNativeBalance } from './wallet-balance';
import { resolveWorldOptions, type SimulatedWorldInput, type WorldOptions } from './world-options';

export interface SimulatedWorld extends World {
  readonly simulator: TrafficSimulator;
  /** The behaviours in effect (from the options and the realistic profile). */
  readonly options: WorldOptions;
}

/** The server's settings this world shares: its seed and profile. */
export interface SimulatedWorldProfile {
  seed: number;
  realistic: boolean;
  looseOrder: boolean;
}

/** Validates the options now (throws "Invalid service option: …"); the world opens on the server's store. */
export function simulatedWorld(input: SimulatedWorldInput, profile: SimulatedWorldProfile): WorldPlugin<SimulatedWorld> {
  const o = resolveWorldOptions(input, profile);
  return {
    storeOptions: {},
    open: ({ store, clock, listening, emit }) => {
      const fresh = store.count() === 0;
      // A demo store keeps the seed it was filled with: its busy addresses survive restarts.
      const seed = o.history > 0 ? rememberedSeed(store, profile.seed) : profile.seed;
      const { looseOrder: _storeOrder, ...behaviours } = o.world;
      const simulator = new TrafficSimulator({
        seed,
        rate: o.rate,
        speed: o.speed,
        startMs: clock.now(),
        addressCount: o.addressCount,
        tickMs: o.tickMs,
        world: { ...behaviours, ...(o.relayers !== undefined ? { relayers: o.relayers } : {}) },
        sink: (changes) => {
          if (listening()) emit(changes);
          store.upsertMany(changes.map((c) => c.record));
        },
      });
      if (o.preload > 0) store.bulkLoad(() => simulator.preload(o.preload));
      const history = fresh ? historyMessageCount(o.history, o.rate) : 0;
      if (history > 0) store.bulkLoad(() => simulator.preload(history, historyRate(o.rate)));
      simulator.attach(clock);
      return {
        simulator,
        options: o.world,
        seed,
        info: () => ({
          simulated: true,
          seed: simulator.seed,
          addresses: simulator.addresses,
          hotAddresses: simulator.hotAddresses,
          chains: CHAIN_REGISTRY.chains,
          simulatedTime: Math.floor(simulator.now() / 1000),
          world: o.world,
          ...(simulator.routes ? { routes: routeIds(simulator.routes) } : {}),
          demoRelayers: simulator.demoRelayers(),
        }),
        balance: (path, params) => answerNativeBalance(simulator.wallets, path, params, simulator.now()),
        start: () => undefined,
        stop: async () => simulator.detachClock(),
      };
    },
  };
}

const pair = (r: Route) => ({ source: r.source.blockchainId, destination: r.destination.blockchainId });

/** The sparse world's routes as blockchain ID pairs. */
const routeIds = (p: RoutePlan) => ({
  busy: [...p.busy.mainnet, ...p.busy.fuji].map(([r]) => pair(r)),
  quiet: p.quiet.map(pair),
  oneWay: p.oneWay.map(pair),
});
