/**
 * Whether the monitor can see: the current data source's health, and with your own nodes each chain's,
 * as a state of its own (up, degraded, down, since when, why). Not seeing is never news about relayers:
 * while a source or chain is blind, the alerts it would show are held (docs/user-guide.md).
 */
import { z } from 'zod';

/**
 * unknown: not read yet since the start or the switch to it; up: read; degraded: read, but later than
 * usual (rate limited, a chain of several down, retrying after a failure); down: not read for
 * SOURCE_DOWN_AFTER_MS or more.
 */
export const HEALTH_STATES = ['unknown', 'up', 'degraded', 'down'] as const;
export type HealthState = (typeof HEALTH_STATES)[number];

export const ChainHealthSchema = z.object({
  blockchainId: z.string(),
  /** The chain's configured name, else the registry's. */
  name: z.string(),
  state: z.enum(HEALTH_STATES),
  /** When it entered this state (ms); null while unknown. */
  since: z.number().nullable(),
  /** Why it is not up, in words (null when up). */
  reason: z.string().nullable(),
});
export type ChainHealth = z.output<typeof ChainHealthSchema>;

export const SourceHealthSchema = z.object({
  /** The source's key (src/shared/sources.ts). */
  source: z.string(),
  /** The source in words ("the Avalanche Data API"). */
  name: z.string(),
  state: z.enum(HEALTH_STATES),
  since: z.number().nullable(),
  reason: z.string().nullable(),
  /** The last cycle that read this source (never another source's). */
  lastSuccessAt: z.number().nullable(),
  /**
   * Whether relayer, route, fuel and stuck alerts are judged now (false: held while the source is
   * unknown, failing or down, and until the first complete read after it came back).
   */
  seeing: z.boolean(),
  /** With your own nodes: each chain's health. */
  chains: z.array(ChainHealthSchema),
});
export type SourceHealth = z.output<typeof SourceHealthSchema>;
