/**
 * The one place that knows both worlds: it splits the service's options into the server's and the
 * world's, loads the world asked for (your own nodes, else the simulator) with a dynamic import, so a
 * service on your own nodes loads no simulator code, and starts the server on it. The import check
 * (.dependency-cruiser.cjs) holds every other production module away from src/simulator.
 */
import type { OwnNodesInput } from '../shared/own-nodes';
import type { TrafficSimulator } from '../simulator/simulator';
import type { SimulatedWorldInput, WorldOptions } from '../simulator/world-options';
import { invalidOption, resolveServerOptions, SERVER_OPTION_KEYS, type ServerOptions } from './options';
import { startServer, type ServerHandle } from './server';

export type { WorldOptions };
// The simulator's vocabulary tests and benchmarks name through the service's entry (types only: nothing loads).
export type { SendOptions } from '../simulator/simulator';
export type { DemoRelayer, RelayerBehaviour, RelayerPersona, RelayerSchedule, RouteRef, Slowdown, TimeSpan } from '../simulator/relayer-personas';

export interface ServiceOptions extends ServerOptions, SimulatedWorldInput {
  /**
   * "Your own nodes": read these chains' TeleporterMessenger logs over JSON-RPC instead of simulating
   * traffic (the simulator is not loaded: its options are ignored, preload and history must stay 0).
   */
  ownNodes?: OwnNodesInput;
}

/** The options of a service on the simulated world (no `ownNodes`): what the demo, tests and benchmarks start. */
export type SimulatedServiceOptions = Omit<ServiceOptions, 'ownNodes'>;

/** Every option of the simulated world, by name (the type keeps the list whole). */
const SIMULATED_KEYS = {
  rate: true,
  speed: true,
  preload: true,
  history: true,
  addressCount: true,
  tickMs: true,
  lag: true,
  sparseRoutes: true,
  messengerVersions: true,
  receiptResends: true,
  dryWallet: true,
  stalls: true,
  demoDay: true,
  relayers: true,
} as const satisfies Record<keyof SimulatedWorldInput, true>;

/** A running service on either world; `simulator` and `world` only in the simulated one. */
export interface RunningService extends ServerHandle {
  simulator?: TrafficSimulator;
  /** The simulator's behaviours in effect (from the options and the realistic profile). */
  world?: WorldOptions;
}

export interface SimulatedService extends RunningService {
  simulator: TrafficSimulator;
  world: WorldOptions;
}

export interface OwnNodesService extends RunningService {
  simulator?: undefined;
  world?: undefined;
}

export function startLocalService(options: ServiceOptions & { ownNodes: OwnNodesInput }): Promise<OwnNodesService>;
export function startLocalService(options?: SimulatedServiceOptions): Promise<SimulatedService>;
export function startLocalService(options?: ServiceOptions): Promise<RunningService>;
export async function startLocalService(options: ServiceOptions = {}): Promise<RunningService> {
  const server: Record<string, unknown> = {};
  const simulated: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (key === 'ownNodes') continue;
    if (SERVER_OPTION_KEYS.has(key)) server[key] = value;
    else if (Object.hasOwn(SIMULATED_KEYS, key)) simulated[key] = value;
    else throw invalidOption({ path: [key], message: 'not an option of the service.' });
  }
  const o = resolveServerOptions(server);
  if (options.ownNodes !== undefined) {
    if ((options.preload ?? 0) > 0 || (options.history ?? 0) > 0)
      throw invalidOption({ path: ['ownNodes'], message: 'own nodes replace the simulator: preload and history must be 0.' });
    const { ownNodesWorld } = await import('../chain-index/own-nodes-world');
    return (await startServer(o, ownNodesWorld(options.ownNodes))).handle;
  }
  const { simulatedWorld } = await import('../simulator/simulated-world');
  const { handle, world } = await startServer(
    o,
    simulatedWorld(simulated as SimulatedWorldInput, { seed: o.seed, realistic: o.realistic, looseOrder: o.looseOrder }),
  );
  return { ...handle, simulator: world.simulator, world: world.options };
}
