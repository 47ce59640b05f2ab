/**
 * What a seed makes of the simulator's world: its addresses and relayers, the relayers' personas and
 * wallets, the routes, and the random streams of traffic, lag and stalls. Each concern draws from a
 * stream of its own, so turning one behaviour on leaves the others' draws as they were.
 */
import { Rng } from '../shared/rng';
import { toChecksumAddress } from '../shared/validators';
import type { DrawContext } from './draw-message';
import { BlockLags } from './index-lag';
import { IndexerStalls } from './indexer-stalls';
import { demoSchedule, RelayerPersonas } from './relayer-personas';
import { planRoutes, type RoutePlan } from './route-plan';
import type { SimulatorOptions, SimWorld } from './sim-types';
import { RelayerWallets, type DryWallet } from './wallets';
import { demoDayDraws } from './demo-day-draws';

const NONCE_EPOCH_MS = Date.UTC(2024, 0, 1);

function mix32(a: number, b: number): number {
  let h = (a ^ 0x9e3779b9) >>> 0;
  h = Math.imul(h ^ (b >>> 0), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ Math.floor(b / 4294967296), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

export interface SeededWorld {
  world: SimWorld;
  /** User addresses (EIP-55), hottest first. */
  addresses: string[];
  hotAddresses: string[];
  relayers: string[];
  personas: RelayerPersonas | null;
  routes: RoutePlan | null;
  wallets: RelayerWallets;
  /** The traffic's own stream. */
  rng: Rng;
  lags: BlockLags;
  stalls: IndexerStalls | null;
  /** What drawing a message needs (the nonces it keeps are the simulator's). */
  draw: DrawContext;
}

export function seedWorld(opts: SimulatorOptions): SeededWorld {
  const startSec = Math.floor(opts.startMs / 1000);
  // The address set depends on the seed only, so watchlists stay valid across restarts.
  const people = new Rng(opts.seed);
  const addresses = Array.from({ length: opts.addressCount ?? 200 }, () => toChecksumAddress('0x' + people.hex(20)));
  const day = opts.world?.demoDay ?? null;
  const schedule = opts.world?.relayers === undefined ? demoSchedule(day?.outage) : opts.world.relayers;
  // Six as always (more for a bigger schedule, drawn after them): the first six stay the same addresses.
  const relayerCount = Math.max(6, schedule ? schedule.relayers.filter((p) => !p.address).length : 0);
  const relayers = Array.from({ length: relayerCount }, () => toChecksumAddress('0x' + people.hex(20)));
  const addressWeights = addresses.map((a, i) => [a, 1 / (i + 1)] as const);
  // Traffic depends on seed and start time: a restart on the same database makes new message IDs.
  const rng = new Rng(mix32(opts.seed, startSec));
  const world: SimWorld = {
    lag: false,
    receiptResends: true,
    sparseRoutes: false,
    messengerVersions: 1,
    dryWallet: false,
    stalls: false,
    demoDay: null,
    ...opts.world,
    relayers: schedule,
  };
  const personas = schedule ? new RelayerPersonas(schedule, relayers, new Rng(mix32(opts.seed ^ 0x7e1a7e, startSec)), opts.startMs) : null;
  const routes = world.sparseRoutes ? planRoutes(opts.seed) : null;
  // The demo day has its own low wallet (the dry one, starting the day low and filled once).
  const lowDay = day ? { lowFrom: opts.startMs, refillAt: opts.startMs + day.refillAtMs } : null;
  const wallets = new RelayerWallets(new Set(relayers.map((r) => r.toLowerCase())), world.dryWallet || day ? dryWallet(personas) : null, lowDay);
  const lags = new BlockLags(new Rng(mix32(opts.seed ^ 0x1a6, startSec)));
  const stalls = world.stalls ? new IndexerStalls(new Rng(mix32(opts.seed ^ 0x57a11, startSec)), opts.startMs) : null;
  const draw: DrawContext = {
    rng,
    speed: opts.speed,
    nonces: new Map(),
    nonceBase: new Map(),
    // Computed IDs repeat with their nonces: a later start continues above an earlier run's (four per second per chain).
    nonceFloor: world.messengerVersions === 2 ? Math.max(0, Math.floor((opts.startMs - NONCE_EPOCH_MS) / 250)) : 0,
    messengerVersions: world.messengerVersions,
    addressWeights,
    relayers: relayers.slice(0, 6),
    ...(personas ? { personas } : {}),
    ...(routes ? { busyRoutes: routes.busy } : {}),
    ...(day && personas ? { demoDay: demoDayDraws(day, personas, opts.startMs, addresses.slice(0, 5)) } : {}),
  };
  return { world, addresses, hotAddresses: addresses.slice(0, 5), relayers, personas, routes, wallets, rng, lags, stalls, draw };
}

/** The wallet that runs dry: the first relayer with routes, on its last route's destination (Swift on the C-Chain in the demo: no takeover there). */
function dryWallet(personas: RelayerPersonas | null): DryWallet | null {
  const r = personas?.describe().find((d) => d.routes.length > 0);
  const route = r?.routes[r.routes.length - 1];
  return r && route ? { relayer: r.address.toLowerCase(), blockchainId: route.destination } : null;
}
