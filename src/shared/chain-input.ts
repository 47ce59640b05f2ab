/**
 * Chain input as people type it, resolved to the one identity everything inside keys a chain by: its
 * cb58 blockchain ID. A route's chains are resolved here and nowhere else (the core's handlers, the
 * headless config and its sync), so one route is one route however it was named.
 */
import { hex } from '@scure/base';
import { chainByEvmChainId, chainsOf, findChain, type OwnChain } from './chains';
import { fail, ok, type Parsed } from './result';
import { NETWORKS, canonicalNetwork, encodeCb58, parseBlockchainId, parseEvmChainId, type Network } from './validators';

/** What a chain's name or EVM chain ID may mean: the route's network (a registry name is looked up there) and your own nodes' chains. */
export interface ChainContext {
  network?: Network | undefined;
  /** Your own nodes' chains while they are the data source (`ownChainsOf`): their configured names and EVM chain IDs. */
  ownChains?: readonly OwnChain[];
}

const HEX_ID_RE = /^0x[0-9a-fA-F]{64}$/;
const DECIMAL_RE = /^[0-9]+$/;

/** The chain names known here, for an error message: your own chains' first, then the registry's. */
function knownNames(ctx: ChainContext): string {
  const own = (ctx.ownChains ?? []).flatMap((c) => (c.name?.trim() ? [c.name.trim()] : []));
  const registry = (ctx.network ? chainsOf(ctx.network) : NETWORKS.flatMap((n) => chainsOf(n))).map((c) => c.name);
  return [...new Set([...own, ...registry])].join(', ');
}

/** What the field takes, for an error message. */
const accepted = (ctx: ChainContext) => `a known chain (${knownNames(ctx)}), a cb58 or 0x blockchain ID, or a known chain's EVM chain ID`;

function byEvmChainId(id: string, ctx: ChainContext): string | undefined {
  return ctx.ownChains?.find((c) => c.evmChainId === id)?.blockchainId ?? chainByEvmChainId(id)?.blockchainId;
}

function byName(name: string, ctx: ChainContext): string | undefined {
  const lower = name.toLowerCase();
  const own = ctx.ownChains?.find((c) => c.name?.trim().toLowerCase() === lower);
  if (own) return own.blockchainId;
  const known = findChain(name, ctx.network);
  return known?.name.toLowerCase() === lower ? known.blockchainId : undefined;
}

/**
 * A chain's cb58 blockchain ID from what was typed: your own chain's configured name (own nodes only),
 * a registry name (within `network`), a cb58 or 0x blockchain ID, or a decimal EVM chain ID that your
 * own nodes or the registry know. `field` names the input in the error ("Source chain").
 */
export function resolveChainInput(input: string, field: string, ctx: ChainContext = {}): Parsed<string> {
  const s = input.trim();
  if (s === '') return fail(`${field} is required.`);
  if (HEX_ID_RE.test(s)) return ok(encodeCb58(hex.decode(s.slice(2).toLowerCase())));
  if (DECIMAL_RE.test(s)) {
    const id = parseEvmChainId(s, `${field} (EVM chain ID)`);
    if (!id.ok) return id;
    const found = byEvmChainId(id.value, ctx);
    return found
      ? ok(found)
      : fail(`${field}: no chain the app knows has EVM chain ID ${s} (it knows ${knownNames(ctx)}). Enter the chain's cb58 or 0x blockchain ID instead.`);
  }
  const named = byName(s, ctx);
  if (named) return ok(named);
  const id = parseBlockchainId(s, `${field} (blockchain ID)`);
  if (id.ok) return id;
  // Short text is a name that is not known; long text a mistyped ID (its own error says what is wrong).
  if (s.length < 40) return fail(`${field}: "${s}" is not ${accepted(ctx)}.`);
  return fail(`${id.error} Enter ${accepted(ctx)}.`);
}

/** A route's two chains, resolved; each problem at its field (`source` or `destination`). */
export type ResolvedRoute = { ok: true; source: string; destination: string } | { ok: false; problems: { field: 'source' | 'destination'; message: string }[] };

/** Both chains of a route resolved with `resolveChainInput`; a route goes from one chain to another. */
export function resolveRouteInput(input: { source: string; destination: string }, ctx: ChainContext = {}): ResolvedRoute {
  const source = resolveChainInput(input.source, 'Source chain', ctx);
  const destination = resolveChainInput(input.destination, 'Destination chain', ctx);
  const problems: { field: 'source' | 'destination'; message: string }[] = [];
  if (!source.ok) problems.push({ field: 'source', message: source.error });
  if (!destination.ok) problems.push({ field: 'destination', message: destination.error });
  if (!source.ok || !destination.ok) return { ok: false, problems };
  if (source.value === destination.value)
    return { ok: false, problems: [{ field: 'destination', message: 'A route goes from one chain to another: pick a different destination chain.' }] };
  return { ok: true, source: source.value, destination: destination.value };
}

/** A route's identity: its network (`testnet` is `fuji`) and its two chains' cb58 IDs. */
export const routeIdentity = (network: Network, source: string, destination: string): string => `${canonicalNetwork(network)}|${source}|${destination}`;
