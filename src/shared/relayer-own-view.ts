/**
 * The relayer's own view beside the chains' (docs/relayer-metrics.md): what each watched relayer's
 * metrics endpoint says it relayed and failed, per route over the comparison window, beside the
 * deliveries the chains show for it; the types both sides of the contract share.
 */
import { z } from 'zod';
import { hostOf, refusedHost } from './alert-targets';
import { evmAddress, network } from './schemas';

/** "points at 169.254.169.254, a link-local address …" for a link-local or metadata host, else null (a relayer's metrics are never there). */
export function metadataHost(url: string): string | null {
  const host = hostOf(url);
  if (host === null) return null;
  const why = refusedHost(host);
  return why ? `points at ${host}, ${why}` : null;
}

/** The metrics URL a watched relayer is offered when none is set: the ICM relayer's default metrics-port. */
export const DEFAULT_RELAYER_METRICS_URL = 'http://127.0.0.1:9090/metrics';

const count = z.number().int().nonnegative();

const OwnRouteRowSchema = z.object({
  sourceChain: z.string(),
  destinationChain: z.string(),
  routeName: z.string(),
  /** A watched route: the chains' side is read. */
  watched: z.boolean(),
  relayerDelivered: z.number().nonnegative(),
  relayerFailed: z.number().nonnegative(),
  failures: z.array(z.object({ reason: z.string(), count: z.number().nonnegative() })),
  /** Deliveries the chains show for this relayer on this route over the same window (null: not a watched route). */
  chainDelivered: count.nullable(),
  latencyMs: z.number().nullable(),
  /** The disagreement in words while it holds. */
  disagreement: z.string().nullable(),
});
export type OwnRouteRow = z.output<typeof OwnRouteRowSchema>;

const RelayerOwnRowSchema = z.object({
  address: z.string(),
  label: z.string(),
  network,
  /** Where its metrics are read (null: not set, nothing is read). */
  metricsUrl: z.string().nullable(),
  /**
   * off: no URL; waiting: set, first read not done; baseline: one read (counts start at the next);
   * read: the last read succeeded; not_read: the last read failed (its reason beside it).
   */
  state: z.enum(['off', 'waiting', 'baseline', 'read', 'not_read']),
  /** "relayer metrics not read: <reason>" while not_read. */
  notRead: z.string().nullable(),
  lastReadAt: z.number().nullable(),
  lastTriedAt: z.number().nullable(),
  /** The window the counts cover: from the read they start at to the last read (null before two reads). */
  from: z.number().nullable(),
  to: z.number().nullable(),
  routes: z.array(OwnRouteRowSchema),
  /** Each disagreement holding now, in words (claims and failures). */
  warnings: z.array(z.string()),
});
export type RelayerOwnRow = z.output<typeof RelayerOwnRowSchema>;

export const RelayerOwnViewSchema = z.object({
  at: z.number(),
  everyMinutes: z.number(),
  windowMinutes: z.number(),
  claimExcess: z.number(),
  failuresInWindow: z.number(),
  defaultUrl: z.string(),
  relayers: z.array(RelayerOwnRowSchema),
});
export type RelayerOwnView = z.output<typeof RelayerOwnViewSchema>;

/** Sets (or, with null, clears) a watched relayer's metrics URL: http(s) only. */
export const RelayerMetricsUrlInputSchema = z
  .object({
    address: evmAddress,
    url: z
      .string()
      .trim()
      .max(2048, 'Metrics URL must be at most 2048 characters.')
      .refine((s) => /^https?:\/\/[^\s]+$/i.test(s), 'Metrics URL must be an http:// or https:// URL, like http://127.0.0.1:9090/metrics.')
      .refine((s) => metadataHost(s) === null, {
        error: (i) => `Metrics URL ${metadataHost(String(i.input))}: refused (such addresses hand out a cloud machine's credentials).`,
      })
      .nullable(),
  })
  .strict();
