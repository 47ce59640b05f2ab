/** Input schemas of the relayer and route watches, and of the Relayers view's reads. */
import { z } from 'zod';
import { chainsOf, findChain } from './chains';
import { RELAYER_FIGURES } from './relayers';
import { evmAddress, network, thresholdMinutes, wholeNumber } from './schemas';
import { NETWORKS, parseChainRef, type Network } from './validators';

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
 * A chain as the filters take it: a registry name (within the route's network, else mainnet's first),
 * a cb58 blockchain ID or a decimal EVM chain ID. Names resolve to the cb58 ID; IDs are kept as given.
 */
export function resolveRouteChain(input: string, net: Network | undefined, what: string): { ok: true; value: string } | { ok: false; error: string } {
  const s = input.trim();
  const named = /^[0-9]+$/.test(s) ? undefined : findChain(s, net);
  if (named && named.name.toLowerCase() === s.toLowerCase()) return { ok: true, value: named.blockchainId };
  const r = parseChainRef(s, what);
  if (r.ok) return { ok: true, value: r.value.value };
  if (s === '') return { ok: false, error: `${what} is required.` };
  if (!/^[0-9]+$/.test(s) && s.length < 40) {
    const names = [...new Set((net ? chainsOf(net) : NETWORKS.flatMap((n) => chainsOf(n))).map((c) => c.name))].join(', ');
    return { ok: false, error: `${what}: "${s}" is not a known chain (${names}), a cb58 blockchain ID or a decimal EVM chain ID.` };
  }
  return { ok: false, error: r.error };
}

export const RouteWatchInputSchema = z
  .object({
    source: z.string().max(100),
    destination: z.string().max(100),
    label: label.optional(),
    network: network.optional(),
    backlogMinutes: minutes('Backlog threshold').optional(),
    alert: z.boolean().optional(),
  })
  .strict()
  .transform((r, ctx) => {
    const source = resolveRouteChain(r.source, r.network, 'Source chain');
    const destination = resolveRouteChain(r.destination, r.network, 'Destination chain');
    if (!source.ok) ctx.addIssue({ code: 'custom', message: source.error, path: ['source'] });
    if (!destination.ok) ctx.addIssue({ code: 'custom', message: destination.error, path: ['destination'] });
    if (!source.ok || !destination.ok) return z.NEVER;
    if (source.value === destination.value) {
      ctx.addIssue({ code: 'custom', message: 'A route goes from one chain to another: pick a different destination chain.', path: ['destination'] });
      return z.NEVER;
    }
    return { ...r, source: source.value, destination: destination.value };
  });

/** A watched route, by its ID or by its two chains (as addRoute takes them), and how many hours of its history to hold. */
export const RouteHistoryInputSchema = z
  .object({
    routeId: z.string().min(1, 'Route ID must not be empty.').max(64, 'Route ID must be at most 64 characters.').optional(),
    source: z.string().max(100).optional(),
    destination: z.string().max(100).optional(),
    network: network.optional(),
    hours: wholeNumber('Route history', [1, '1 hour'], [24, '24 hours (the figures cover the last day)']),
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
    const source = resolveRouteChain(r.source, r.network, 'Source chain');
    const destination = resolveRouteChain(r.destination, r.network, 'Destination chain');
    if (!source.ok) ctx.addIssue({ code: 'custom', message: source.error, path: ['source'] });
    if (!destination.ok) ctx.addIssue({ code: 'custom', message: destination.error, path: ['destination'] });
    if (!source.ok || !destination.ok) return z.NEVER;
    return { source: source.value, destination: destination.value, network: r.network, hours: r.hours };
  });

export const RelayerFigureTargetSchema = z
  .object({
    relayer: evmAddress.optional(),
    routeId: z.string().min(1).max(64).optional(),
    figure: z.enum(RELAYER_FIGURES),
  })
  .strict()
  .refine((t) => t.relayer !== undefined || t.routeId !== undefined, { message: 'Name a relayer or a route.', path: ['relayer'] });
