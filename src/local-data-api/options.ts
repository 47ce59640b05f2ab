/** Options of startTeleporterService, validated with zod; defaults in one place. */
import { demoDayOf, DemoDayOptionSchema, type DemoDay, type DemoDayOption } from '../simulator/demo-day';
import { DEMO_RATE, DEMO_SEED } from '../shared/demo-world';
import { z } from 'zod';
import type { Clock } from '../shared/clock';
import { parseFaultSpec } from './faults';
import { OwnNodesSchema, type OwnNodesInput } from '../shared/own-nodes';
import type { RelayerSchedule } from '../simulator/relayer-personas';
import { RelayerScheduleSchema } from '../simulator/relayer-schedule-schema';
import { PUBLIC_PLANS, REALISTIC_CU_LIMITS, requestsAsCu, type CuLimits, type PublicPlan } from './compute-units';

/** One request the rate limit counted: its caller, CU and path, and the API key it came with (the embedder's own keys). */
export interface Charge {
  caller: 'key' | 'anonymous';
  cu: number;
  path: string;
  key?: string;
}

export interface ServiceOptions {
  /** Default 0 (a free port); the host is always 127.0.0.1. */
  port?: number;
  /** SQLite file; default a new temp file, deleted on close. */
  dbPath?: string;
  /** Seed of the simulator and the fault injector (default 1). */
  seed?: number;
  /** Simulated new messages per second; 0 = no spontaneous traffic (default 2). */
  rate?: number;
  /** Delivery and receipt delays are divided by this (default 1). */
  speed?: number;
  /** Accepted keys (in x-glacier-api-key or x-service-api-key). */
  apiKeys?: string[];
  /** Refuse requests without a key (401). */
  requireKey?: boolean;
  /** Fault profile: a preset (flaky, ratelimited, slow, malformed, chaos) or a spec such as "5xx:0.2,429:0.1". */
  faults?: string;
  /** Default systemClock. */
  clock?: Clock;
  /**
   * Requests per minute per key and per anonymous caller, counted as CU at the list operations' weight
   * (20) with no daily limit (default 600 and 120; the realistic profile counts CU instead, see `computeUnits`).
   */
  rateLimitPerMinute?: { keyed: number; anonymous: number };
  /**
   * CU per minute and per day per key and per anonymous caller: a public plan's name or figures
   * (default in the realistic profile: a key on the Free plan, callers without one unauthenticated).
   */
  computeUnits?: { keyed: PublicPlan | CuLimits; anonymous: PublicPlan | CuLimits };
  /** Insert this many historical messages at start (fast bulk path). */
  preload?: number;
  /**
   * Hours of past traffic (at `rate`, at most 20,000 messages) written into an empty store at start;
   * the store then keeps its seed across restarts. Default 0.
   */
  history?: number;
  /** Read the store file through once at start, in the background, so the OS caches it (default true). */
  warmStore?: boolean;
  /** Log one line per request to `log` (never the key itself). */
  logRequests?: boolean;
  /**
   * Called for each request the rate limit counts (the CU it counted, for a key or an anonymous caller),
   * before the request is answered: benchmarks count the day's spend with it, or move the world while a client reads.
   */
  onCharge?: (charge: Charge) => void;
  /** Called for each request the rate limit refused (429), with the CU it would have cost: benchmarks count a caller's refusals at the service. */
  onRefused?: (charge: Charge) => void;
  /** Where log lines go (default stderr). */
  log?: (line: string) => void;
  /** Number of simulated user addresses (default 200). */
  addressCount?: number;
  /** How often (clock ms) the simulator catches up with the clock at most (default 1000). */
  tickMs?: number;
  /**
   * The realistic profile: every behaviour below on (each can still be set on its own) and the public
   * API's rate limit by default. Default false.
   */
  realistic?: boolean;
  /** Indexing lag per record change (most a few seconds, a few tens of seconds, some minutes). Default: `realistic`. */
  lag?: boolean;
  /** Records of the same second listed in an arbitrary (seeded) order instead of the order they appeared. Default: `realistic`. */
  looseOrder?: boolean;
  /** Busy traffic on a few routes; every other route a message every few minutes, some one way. Default: `realistic`. */
  sparseRoutes?: boolean;
  /** Messenger contracts sending on each route (2: a second version, nonces overlapping the first's). Default 2 if `realistic`, else 1. */
  messengerVersions?: 1 | 2;
  /** The relayers re-send receipts still missing 3 minutes after delivery. Default: not `realistic`. */
  receiptResends?: boolean;
  /** One demo relayer's wallet on one chain gets a few dozen deliveries' gas per refill, so it runs dry (src/simulator/wallets.ts). Default false (the embedded demo's launcher turns it on). */
  dryWallet?: boolean;
  /** The lag's rare long tail: a few times a day the indexer stops for 30-120 minutes, then catches up (src/simulator/indexer-stalls.ts). Default false (opt-in, also with `realistic`). */
  stalls?: boolean;
  /**
   * The demo day (src/simulator/demo-day.ts): every alert kind happens and ends in the first minutes.
   * true: the demo's timeline; an object: parts of it changed (ms after the start), e.g. to run it in
   * minutes in a test. Default false (the embedded demo's launcher turns it on).
   */
  demoDay?: DemoDayOption;
  /**
   * Relayers with distinct behaviour (fast, slow, outage, takeover, steady) and their schedule, times in ms
   * after the start (src/simulator/relayer-personas.ts); false: six alike, picked uniformly. Default: the demo's six.
   */
  relayers?: RelayerSchedule | false;
  /**
   * "Your own nodes": read these chains' TeleporterMessenger logs over JSON-RPC instead of simulating
   * traffic (the simulator is off: rate, history and preload must stay 0).
   */
  ownNodes?: OwnNodesInput;
}

/** The simulator's behaviours, each resolved from its own option or the profile. */
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

const GENEROUS_RATE_LIMIT = { keyed: 600, anonymous: 120 } as const;

const CuLimitsSchema = z.union([
  z.enum(Object.keys(PUBLIC_PLANS) as [PublicPlan, ...PublicPlan[]]),
  z.object({ cuPerMinute: z.number().int().positive(), cuPerDay: z.number().int().positive().nullable() }).strict(),
]);

const ClockSchema = z.custom<Clock>(
  (c) => typeof c === 'object' && c !== null && typeof (c as Clock).now === 'function' && typeof (c as Clock).setTimer === 'function',
  'clock must implement now() and setTimer().',
);

const ServiceOptionsSchema = z
  .object({
    port: z.number().int().min(0).max(65535, 'port must be 0..65535.').default(0),
    dbPath: z.string().min(1).optional(),
    seed: z.number().int('seed must be a whole number.').min(0).max(4294967295).default(DEMO_SEED),
    rate: z.number().min(0, 'rate must not be negative.').max(10_000, 'rate must be at most 10000 messages per second.').default(DEMO_RATE),
    speed: z.number().positive('speed must be greater than 0.').max(1_000_000).default(1),
    apiKeys: z
      .array(
        z
          .string()
          .min(1, 'an API key must not be empty.')
          .regex(/^[\x21-\x7e]+$/, 'an API key must be printable ASCII without spaces.'),
      )
      .default([]),
    requireKey: z.boolean().default(false),
    faults: z
      .string()
      .optional()
      .superRefine((s, ctx) => {
        if (s === undefined) return;
        const r = parseFaultSpec(s);
        if (!r.ok) ctx.addIssue({ code: 'custom', message: r.error });
      }),
    clock: ClockSchema.optional(),
    rateLimitPerMinute: z.object({ keyed: z.number().int().positive(), anonymous: z.number().int().positive() }).optional(),
    computeUnits: z.object({ keyed: CuLimitsSchema, anonymous: CuLimitsSchema }).strict().optional(),
    preload: z.number().int().min(0).max(50_000_000).default(0),
    history: z.number().min(0, 'history must not be negative.').max(168, 'history must be at most 168 hours.').default(0),
    warmStore: z.boolean().default(true),
    logRequests: z.boolean().default(false),
    log: z.custom<(line: string) => void>((f) => typeof f === 'function').optional(),
    onCharge: z.custom<NonNullable<ServiceOptions['onCharge']>>((f) => typeof f === 'function', 'onCharge must be a function.').optional(),
    onRefused: z.custom<NonNullable<ServiceOptions['onRefused']>>((f) => typeof f === 'function', 'onRefused must be a function.').optional(),
    addressCount: z.number().int().min(2).max(100_000).default(200),
    tickMs: z.number().int().min(1).max(60_000).default(1000),
    realistic: z.boolean().default(false),
    lag: z.boolean().optional(),
    looseOrder: z.boolean().optional(),
    sparseRoutes: z.boolean().optional(),
    messengerVersions: z.union([z.literal(1), z.literal(2)], 'messengerVersions must be 1 or 2.').optional(),
    receiptResends: z.boolean().optional(),
    dryWallet: z.boolean().optional(),
    stalls: z.boolean().optional(),
    demoDay: DemoDayOptionSchema.optional(),
    relayers: z.union([z.literal(false), RelayerScheduleSchema]).optional(),
    ownNodes: OwnNodesSchema.optional(),
  })
  .strict()
  .refine((o) => !o.ownNodes || (o.preload === 0 && o.history === 0), {
    message: 'own nodes replace the simulator: preload and history must be 0.',
    path: ['ownNodes'],
  })
  .refine((o) => !o.requireKey || o.apiKeys.length > 0, { message: 'requireKey needs at least one API key.', path: ['requireKey'] })
  .refine((o) => !(o.rateLimitPerMinute && o.computeUnits), { message: 'give rateLimitPerMinute or computeUnits, not both.', path: ['computeUnits'] });

type Parsed = z.output<typeof ServiceOptionsSchema>;
type ResolvedOptions = Omit<Parsed, keyof WorldOptions | 'rateLimitPerMinute' | 'computeUnits'> & {
  /** Each caller's limits in CU. */
  limits: { keyed: CuLimits; anonymous: CuLimits };
  world: WorldOptions;
};

export function resolveOptions(options: ServiceOptions): ResolvedOptions {
  const r = ServiceOptionsSchema.safeParse(options);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
    throw new Error(`Invalid service option: ${where}${issue.message}`);
  }
  const { lag, looseOrder, sparseRoutes, messengerVersions, receiptResends, dryWallet, stalls, demoDay, rateLimitPerMinute, computeUnits, ...rest } = r.data;
  const real = rest.realistic;
  return {
    ...rest,
    limits: resolveLimits(real, rateLimitPerMinute, computeUnits),
    world: {
      lag: lag ?? real,
      looseOrder: looseOrder ?? real,
      sparseRoutes: sparseRoutes ?? real,
      messengerVersions: messengerVersions ?? (real ? 2 : 1),
      receiptResends: receiptResends ?? !real,
      dryWallet: dryWallet ?? false,
      stalls: stalls ?? false,
      // Own nodes replace the simulator: no simulated day.
      demoDay: rest.ownNodes ? null : demoDayOf(demoDay),
    },
  };
}

/** Explicit CU figures, else a request rate as CU, else the profile's: the public plans (realistic) or a generous rate. */
function resolveLimits(realistic: boolean, perMinute: Parsed['rateLimitPerMinute'], cu: Parsed['computeUnits']): ResolvedOptions['limits'] {
  const plan = (p: PublicPlan | CuLimits): CuLimits => (typeof p === 'string' ? { ...PUBLIC_PLANS[p] } : p);
  if (cu) return { keyed: plan(cu.keyed), anonymous: plan(cu.anonymous) };
  if (perMinute) return { keyed: requestsAsCu(perMinute.keyed), anonymous: requestsAsCu(perMinute.anonymous) };
  if (realistic) return { keyed: { ...REALISTIC_CU_LIMITS.keyed }, anonymous: { ...REALISTIC_CU_LIMITS.anonymous } };
  return { keyed: requestsAsCu(GENEROUS_RATE_LIMIT.keyed), anonymous: requestsAsCu(GENEROUS_RATE_LIMIT.anonymous) };
}
