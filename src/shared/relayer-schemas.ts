/** Input schemas of the relayer and route watches, and of the Relayers view's reads. */
import { z } from 'zod';
import { RELAYER_FIGURES } from './relayers';
import { evmAddress, network, routeHistoryHours, thresholdMinutes } from './schemas';

const minutes = thresholdMinutes;
const label = z.string().max(80, 'Label must be at most 80 characters.');

export const RelayerWatchInputSchema = z
  .object({
    /** Its deliverer address or its reward address (EIP-55 checked). */
    address: evmAddress,
    label: label.optional(),
    network: network.optional(),
    silentMinutes: minutes('Silence threshold').optional(),
    pendingMinutes: minutes('Pending threshold').optional(),
    alert: z.boolean().optional(),
  })
  .strict();

/**
 * A route's chain as typed: a name (the registry's, or your own chain's), a cb58 or 0x blockchain ID,
 * or an EVM chain ID. The core resolves it to the cb58 ID (shared/chain-input.ts): only it knows
 * your own nodes' chains.
 */
const chainText = (what: string) =>
  z
    .string({ error: `${what} is required.` })
    .trim()
    .min(1, `${what} is required.`)
    .max(100, `${what} must be at most 100 characters.`);

export const RouteWatchInputSchema = z
  .object({
    source: chainText('Source chain'),
    destination: chainText('Destination chain'),
    label: label.optional(),
    network: network.optional(),
    backlogMinutes: minutes('Backlog threshold').optional(),
    alert: z.boolean().optional(),
  })
  .strict();

/** A watched route, by its ID or by its two chains (as addRoute takes them), and how many hours of its history to hold. */
export const RouteHistoryInputSchema = z
  .object({
    routeId: z.string().min(1, 'Route ID must not be empty.').max(64, 'Route ID must be at most 64 characters.').optional(),
    source: chainText('Source chain').optional(),
    destination: chainText('Destination chain').optional(),
    network: network.optional(),
    hours: routeHistoryHours(' (the figures cover the last day)'),
  })
  .strict()
  .transform((r, ctx) => {
    if (r.routeId !== undefined) {
      if (r.source !== undefined || r.destination !== undefined)
        ctx.addIssue({ code: 'custom', message: 'Name the route by its ID or by its two chains, not both.', path: ['routeId'] });
      return { routeId: r.routeId, hours: r.hours };
    }
    if (r.source === undefined || r.destination === undefined) {
      ctx.addIssue({ code: 'custom', message: 'Name the route: its ID, or its source and destination chains.', path: ['routeId'] });
      return z.NEVER;
    }
    return { source: r.source, destination: r.destination, network: r.network, hours: r.hours };
  });

export const RelayerFigureTargetSchema = z
  .object({
    relayer: evmAddress.optional(),
    routeId: z.string().min(1).max(64).optional(),
    figure: z.enum(RELAYER_FIGURES),
  })
  .strict()
  .refine((t) => t.relayer !== undefined || t.routeId !== undefined, { message: 'Name a relayer or a route.', path: ['relayer'] });
