/** The simulated world's options (ServiceOptions beside the server's), validated with zod; defaults in one place. */
import { z } from 'zod';
import { DEMO_RATE } from '../shared/demo-world';
import { invalidOption } from '../local-service/options';
import { demoDayOf, DemoDayOptionSchema, type DemoDay, type DemoDayOption } from './demo-day';
import type { RelayerSchedule } from './relayer-personas';
import { RelayerScheduleSchema } from './relayer-schedule-schema';
import { MINUTE_MS } from '../shared/time';

export interface SimulatedWorldInput {
  /** Simulated new messages per second; 0 = no spontaneous traffic (default 2). */
  rate?: number;
  /** Delivery and receipt delays are divided by this (default 1). */
  speed?: number;
  /** Insert this many historical messages at start (fast bulk path). */
  preload?: number;
  /**
   * Hours of past traffic (at `rate`, at most 20,000 messages) written into an empty store at start;
   * the store then keeps its seed across restarts. Default 0.
   */
  history?: number;
  /** Number of simulated user addresses (default 200). */
  addressCount?: number;
  /** How often (clock ms) the simulator catches up with the clock at most (default 1000). */
  tickMs?: number;
  /** Indexing lag per record change (most a few seconds, a few tens of seconds, some minutes). Default: `realistic`. */
  lag?: boolean;
  /** Busy traffic on a few routes; every other route a message every few minutes, some one way. Default: `realistic`. */
  sparseRoutes?: boolean;
  /** Messenger contracts sending on each route (2: a second version, nonces overlapping the first's). Default 2 if `realistic`, else 1. */
  messengerVersions?: 1 | 2;
  /** The relayers re-send receipts still missing 3 minutes after delivery. Default: not `realistic`. */
  receiptResends?: boolean;
  /** One demo relayer's wallet on one chain gets a few dozen deliveries' gas per refill, so it runs dry (wallets.ts). Default false (the embedded demo's launcher turns it on). */
  dryWallet?: boolean;
  /** The lag's rare long tail: a few times a day the indexer stops for 30-120 minutes, then catches up (indexer-stalls.ts). Default false (opt-in, also with `realistic`). */
  stalls?: boolean;
  /**
   * The demo day (demo-day.ts): every alert kind happens and ends in the first minutes. true: the
   * demo's timeline; an object: parts of it changed (ms after the start), e.g. to run it in minutes in
   * a test. Default false (the embedded demo's launcher turns it on).
   */
  demoDay?: DemoDayOption;
  /**
   * Relayers with distinct behaviour (fast, slow, outage, takeover, steady) and their schedule, times in ms
   * after the start (relayer-personas.ts); false: six alike, picked uniformly. Default: the demo's six.
   */
  relayers?: RelayerSchedule | false;
}

/** The simulator's behaviours, each resolved from its own option or the profile (/_local/info's `world`). */
export interface WorldOptions {
  lag: boolean;
  looseOrder: boolean;
  sparseRoutes: boolean;
  messengerVersions: 1 | 2;
  receiptResends: boolean;
  dryWallet: boolean;
  stalls: boolean;
  /** The demo day's timeline (null: none). */
  demoDay: DemoDay | null;
}

export const SimulatedWorldSchema = z
  .object({
    rate: z.number().min(0, 'rate must not be negative.').max(10_000, 'rate must be at most 10000 messages per second.').default(DEMO_RATE),
    speed: z.number().positive('speed must be greater than 0.').max(1_000_000).default(1),
    preload: z.number().int().min(0).max(50_000_000).default(0),
    history: z.number().min(0, 'history must not be negative.').max(168, 'history must be at most 168 hours.').default(0),
    addressCount: z.number().int().min(2).max(100_000).default(200),
    tickMs: z.number().int().min(1).max(MINUTE_MS).default(1000),
    lag: z.boolean().optional(),
    sparseRoutes: z.boolean().optional(),
    messengerVersions: z.union([z.literal(1), z.literal(2)], 'messengerVersions must be 1 or 2.').optional(),
    receiptResends: z.boolean().optional(),
    dryWallet: z.boolean().optional(),
    stalls: z.boolean().optional(),
    demoDay: DemoDayOptionSchema.optional(),
    relayers: z.union([z.literal(false), RelayerScheduleSchema]).optional(),
  })
  .strict();

type Parsed = z.output<typeof SimulatedWorldSchema>;
export type ResolvedWorld = Pick<Parsed, 'rate' | 'speed' | 'preload' | 'history' | 'addressCount' | 'tickMs' | 'relayers'> & { world: WorldOptions };

/** The options resolved against the server's profile (`realistic`, `looseOrder`); throws "Invalid service option: <field>: …". */
export function resolveWorldOptions(input: SimulatedWorldInput, profile: { realistic: boolean; looseOrder: boolean }): ResolvedWorld {
  const r = SimulatedWorldSchema.safeParse(input);
  if (!r.success) throw invalidOption(r.error.issues[0]!);
  const { lag, sparseRoutes, messengerVersions, receiptResends, dryWallet, stalls, demoDay, ...rest } = r.data;
  const real = profile.realistic;
  return {
    ...rest,
    world: {
      lag: lag ?? real,
      looseOrder: profile.looseOrder,
      sparseRoutes: sparseRoutes ?? real,
      messengerVersions: messengerVersions ?? (real ? 2 : 1),
      receiptResends: receiptResends ?? !real,
      dryWallet: dryWallet ?? false,
      stalls: stalls ?? false,
      demoDay: demoDayOf(demoDay),
    },
  };
}
