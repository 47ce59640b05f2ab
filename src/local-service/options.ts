/**
 * The server's options (whatever world it serves), validated with zod; defaults in one place. Each
 * world validates its own (src/simulator/world-options.ts, `ownNodes`); compose-world.ts splits them.
 */
import { DEMO_SEED } from '../shared/demo-world';
import { z } from 'zod';
import type { Clock } from '../shared/clock';
import { parseFaultSpec } from './faults';
import { PUBLIC_PLANS, REALISTIC_CU_LIMITS, requestsAsCu, type CuLimits, type PublicPlan } from './compute-units';

/** One request the rate limit counted: its caller, CU and path, and the API key it came with (the embedder's own keys). */
export interface Charge {
  caller: 'key' | 'anonymous';
  cu: number;
  path: string;
  key?: string;
}

export interface ServerOptions {
  /** Default 0 (a free port); the host is always 127.0.0.1. */
  port?: number;
  /** SQLite file; default a new temp file, deleted on close. */
  dbPath?: string;
  /** Seed of the simulator and the fault injector (default 1). */
  seed?: number;
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
  /**
   * The realistic profile: the public API's rate limit by default, and every behaviour of the simulated
   * world on (each can still be set on its own). Default false.
   */
  realistic?: boolean;
  /** Records of the same second listed in an arbitrary (seeded) order instead of the order they appeared. Default: `realistic`. */
  looseOrder?: boolean;
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

const ServerOptionsSchema = z
  .object({
    port: z.number().int().min(0).max(65535, 'port must be 0..65535.').default(0),
    dbPath: z.string().min(1).optional(),
    seed: z.number().int('seed must be a whole number.').min(0).max(4294967295).default(DEMO_SEED),
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
    warmStore: z.boolean().default(true),
    logRequests: z.boolean().default(false),
    log: z.custom<(line: string) => void>((f) => typeof f === 'function').optional(),
    onCharge: z.custom<NonNullable<ServerOptions['onCharge']>>((f) => typeof f === 'function', 'onCharge must be a function.').optional(),
    onRefused: z.custom<NonNullable<ServerOptions['onRefused']>>((f) => typeof f === 'function', 'onRefused must be a function.').optional(),
    realistic: z.boolean().default(false),
    looseOrder: z.boolean().optional(),
  })
  .strict()
  .refine((o) => !o.requireKey || o.apiKeys.length > 0, { message: 'requireKey needs at least one API key.', path: ['requireKey'] })
  .refine((o) => !(o.rateLimitPerMinute && o.computeUnits), { message: 'give rateLimitPerMinute or computeUnits, not both.', path: ['computeUnits'] });

/** The server's option names (compose-world.ts hands every other option to the world). */
export const SERVER_OPTION_KEYS: ReadonlySet<string> = new Set(ServerOptionsSchema.keyof().options);

type Parsed = z.output<typeof ServerOptionsSchema>;
export type ResolvedServerOptions = Omit<Parsed, 'rateLimitPerMinute' | 'computeUnits' | 'looseOrder'> & {
  /** Each caller's limits in CU. */
  limits: { keyed: CuLimits; anonymous: CuLimits };
  looseOrder: boolean;
};

/** The error of an option's problem: "Invalid service option: <field>: <problem>". */
export function invalidOption(issue: { path: PropertyKey[]; message: string }): Error {
  const where = issue.path.length ? `${issue.path.map(String).join('.')}: ` : '';
  return new Error(`Invalid service option: ${where}${issue.message}`);
}

export function resolveServerOptions(options: ServerOptions): ResolvedServerOptions {
  const r = ServerOptionsSchema.safeParse(options);
  if (!r.success) throw invalidOption(r.error.issues[0]!);
  const { rateLimitPerMinute, computeUnits, looseOrder, ...rest } = r.data;
  return { ...rest, looseOrder: looseOrder ?? rest.realistic, limits: resolveLimits(rest.realistic, rateLimitPerMinute, computeUnits) };
}

/** Explicit CU figures, else a request rate as CU, else the profile's: the public plans (realistic) or a generous rate. */
function resolveLimits(realistic: boolean, perMinute: Parsed['rateLimitPerMinute'], cu: Parsed['computeUnits']): ResolvedServerOptions['limits'] {
  const plan = (p: PublicPlan | CuLimits): CuLimits => (typeof p === 'string' ? { ...PUBLIC_PLANS[p] } : p);
  if (cu) return { keyed: plan(cu.keyed), anonymous: plan(cu.anonymous) };
  if (perMinute) return { keyed: requestsAsCu(perMinute.keyed), anonymous: requestsAsCu(perMinute.anonymous) };
  if (realistic) return { keyed: { ...REALISTIC_CU_LIMITS.keyed }, anonymous: { ...REALISTIC_CU_LIMITS.anonymous } };
  return { keyed: requestsAsCu(GENEROUS_RATE_LIMIT.keyed), anonymous: requestsAsCu(GENEROUS_RATE_LIMIT.anonymous) };
}
